// What a finding says, from planned findings of real sources.
import { describe, expect, it } from 'vitest';
import { findCloneClasses } from './clone-detection.js';
import { locateClones } from './clone-fragments.js';
import { describeFinding } from './clone-report.js';
import { planFindings } from './finding-plan.js';
import { collectFiles } from './token-streams.js';
import { tokenSummaryOf as summaryOf, totalFunction } from './fixtures/mini-repo.js';

describe('describeFinding', () => {
  it('describes a clone found on exact tokens as comparing its copies does, without comparing them', () => {
    const sources = {
      'src/a.ts': `export const version = 1;\n\n${totalFunction('sum')}\n`,
      // The same code with other comments and layout, and a part of it once more.
      'src/b.ts': `${totalFunction('sum').replace(/\n/g, ' // copied\n')}\n\nexport const other = 2;\n`,
      'src/c.ts': `// c\n${totalFunction('sum')}\n${totalFunction('sum')}\n`,
    };
    const summaries = Object.entries(sources).map(([path, source]) => summaryOf(path, source));
    for (const mode of ['mild', 'strict'] as const) {
      const { files } = collectFiles(summaries, { mode, ignoreImports: true, ignoreTests: true });
      const policy = { minTokens: 20, minLines: 3, ignoreOverloads: true };
      const planned = planFindings(
        locateClones(
          findCloneClasses(
            files.map((f) => f.hashes),
            20,
          ),
          files,
          policy,
        ),
      );
      expect(planned.length, mode).toBeGreaterThanOrEqual(2);
      for (const finding of planned) {
        expect(describeFinding(finding, true), mode).toEqual(describeFinding(finding));
        expect(describeFinding(finding).data?.cloneType).toBe('type-1');
      }
    }
  });
});
