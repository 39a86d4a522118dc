// A head run derived from the base's recorded state updates the base's clone classes for the
// changed files: the findings, the duplication index and the clone counts are a full run's.
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { createEngine, type AssessmentResult, type CodeHealthConfig } from '@codehealth/engine';
import { createGitRepo, type TestRepo } from '../../../../../test/helpers/git-repo.js';
import { totalFunction } from '../fixtures/mini-repo.js';
import { duplication } from '../index.js';

const lines = (n: number, make: (i: number) => string): string => Array.from({ length: n }, (_, i) => make(i)).join('\n');
const longFunction = (name: string, n: number, step = 'step'): string =>
  `export function ${name}(x: number) {\n${lines(n, (i) => `  record('${step} ${i}', x + ${i});`)}\n}`;

const BASE = {
  'src/a.ts': `export const version = 1;\n\n${totalFunction('sumA')}\n`,
  'src/b.ts': `${totalFunction('sumB')}\n\nexport const other = 2;\n`,
  'src/c.ts': `${longFunction('big', 20)}\n`,
  'src/d.ts': `export const d = 1;\n${longFunction('bigCopy', 20)}\n`,
  'src/e.ts': `${longFunction('other', 12, 'phase')}\n`,
  'src/f.ts': `${longFunction('bigToo', 14)}\n`,
};

const repos: TestRepo[] = [];
afterAll(() => {
  for (const repo of repos) rmSync(repo.root, { recursive: true, force: true });
});

const duplicationOf = (result: AssessmentResult) => ({
  index: result.metrics.duplicationIndex,
  lines: result.metrics.duplicatedLines,
  counts: Object.fromEntries(Object.entries(result.metrics.analyzerMetrics).filter(([name]) => name.startsWith('duplication.'))),
  findings: result.findings.map((f) => `${f.filePath}:${f.anchor.lineStart}-${f.anchor.lineEnd} ${f.severity} ${f.title} | ${f.description}`).sort(),
});

async function runs(mode: 'mild' | 'weak') {
  const config: CodeHealthConfig = { rules: { 'duplication/duplicated-code': { options: { mode, minTokens: 30 } } } };
  const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [duplication] }], cacheDir: false, workers: 0 });
  const repo = createGitRepo(BASE, 'codehealth-dup-incremental-');
  repos.push(repo);
  const baseCommit = repo.git('rev-parse', 'HEAD');
  const base = await engine.analyze(repo.root, { config });

  // sumA leaves a.ts (b.ts, unchanged, loses its copy) and comes back in a new file; big is edited
  // in c.ts; f.ts is renamed; e.ts gains a copy of big's first lines.
  repo.git('mv', 'src/f.ts', 'src/h.ts');
  repo.write({
    'src/a.ts': 'export const version = 2;\n',
    'src/g.ts': `// moved here\n${totalFunction('sumG')}\n`,
    'src/c.ts': `${longFunction('big', 20).replace("record('step 9', x + 9);", "record('step 9', x * 9);")}\n`,
    'src/e.ts': `${longFunction('other', 12, 'phase')}\n${longFunction('bigPart', 8)}\n`,
  });
  const headCommit = repo.commit('change');
  const changedPaths = ['src/a.ts', 'src/g.ts', 'src/c.ts', 'src/e.ts', 'src/f.ts', 'src/h.ts'];
  const messages: string[] = [];
  const derived = await engine.analyze(repo.root, {
    config,
    incremental: { baseCommit, headCommit, changedPaths },
    onProgress: (e) => messages.push(e.message),
  });
  const fresh = await createEngine({ plugins: [{ name: 'test', analyzers: [duplication] }], cacheDir: false, workers: 0 });
  const full = await fresh.analyze(repo.root, { config });
  return { base, derived, full, messages };
}

describe('duplication/duplicated-code on a derived run', () => {
  for (const mode of ['mild', 'weak'] as const) {
    it(`gives a full run's findings, index and clone counts from the base's saved classes (${mode})`, async () => {
      const { base, derived, full, messages } = await runs(mode);
      expect(messages.filter((m) => m.includes("the base run's clones updated"))).toHaveLength(mode === 'weak' ? 2 : 1);
      expect(duplicationOf(derived)).toEqual(duplicationOf(full));
      // The change did change the duplication: the update had work to do.
      expect(duplicationOf(derived)).not.toEqual(duplicationOf(base));
      expect(duplicationOf(derived).findings.some((f) => f.startsWith('src/g.ts') || f.includes('src/g.ts'))).toBe(true);
      expect(duplicationOf(derived).findings.some((f) => f.startsWith('src/e.ts'))).toBe(true);
      expect(duplicationOf(derived).findings.some((f) => f.includes('src/f.ts'))).toBe(false);
    });
  }
});
