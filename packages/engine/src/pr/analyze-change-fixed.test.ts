// engine.analyzeChange's fixed findings on a real git repository: the merge base's findings that
// head no longer has — and not those head keeps in an edited file — the same when the merge base
// comes from an earlier review, those of file rules in a cold review, and none for an empty change.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { createEngine } from '../di/create-engine.js';

const deep = (name: string) =>
  `export function ${name}(a: number, b: number, c: number): number {\n` +
  `  let t = 0;\n  for (let i = 0; i < a; i++) {\n    if (i % 2 === 0) {\n      for (let j = 0; j < b; j++) {\n        if (j > c) {\n          if (i && j) { t += i; } else if (c) { t -= j; } else { t++; }\n        } else if (j === c) {\n          while (t > 100) { t -= a || 1; if (t < 5) break; }\n        }\n      }\n    } else if (i % 3 === 0) {\n      t += b ? c : a;\n    }\n  }\n  return t;\n}\n`;

let repo: TestRepo | undefined;
afterEach(() => {
  if (repo) rmSync(repo.root, { recursive: true, force: true });
  repo = undefined;
});

describe('engine.analyzeChange: fixed findings', () => {
  it('lists as fixed the base findings head no longer has, not those it keeps, the same from the kept merge base', async () => {
    const index = (names: string[]) => names.map((name) => `export * from './${name}.js';\n`).join('');
    // A tangled function of another shape than deep(): not a move of gone's code.
    const tangled =
      'export function tangled(rows: string[][]): string {\n  let out = "";\n  for (const row of rows) {\n    if (row.length) {\n' +
      '      for (const cell of row) {\n        if (cell.startsWith("#")) {\n          if (cell.length > 3) { out += cell; } else if (out) { out = ""; } else { out += "-"; }\n' +
      '        } else {\n          while (out.length > 80) { out = out.slice(1); if (!out) break; }\n        }\n      }\n    }\n  }\n  return out;\n}\n';
    repo = createGitRepo({
      'package.json': '{ "name": "demo", "type": "module", "main": "src/index.ts" }\n',
      'src/index.ts': index(['a', 'gone', 'kept']),
      'src/a.ts': 'export const a = 1;\n',
      'src/gone.ts': deep('gone'),
      'src/kept.ts': deep('kept'),
    });
    repo.git('checkout', '-q', '-b', 'feature');
    // gone is simplified, kept stays tangled in an edited file, tangled is added.
    repo.write({
      'src/index.ts': index(['a', 'gone', 'kept', 'fresh']),
      'src/gone.ts': 'export function gone(a: number): number {\n  return a + 1;\n}\n',
      'src/kept.ts': `${deep('kept')}export const v = 2;\n`,
      'src/fresh.ts': tangled,
    });
    repo.commit('simplify gone, add tangled');
    const engine = await createEngine({ cacheDir: false });
    const places = (findings: readonly { ruleId: string; filePath: string; symbol?: string }[]) =>
      findings.map((f) => `${f.ruleId} ${f.filePath}#${f.symbol ?? ''}`).sort();
    const first = await engine.analyzeChange({ root: repo.root, base: 'main', fullBase: true });
    // Fixed: gone's findings, and kept's duplication (its other copy was gone). Kept's own findings are neither.
    expect(places(first.fixedFindings)).toEqual([
      'code-smell/cognitive-complexity src/gone.ts#gone',
      'code-smell/deep-nesting src/gone.ts#gone',
      ...Array<string>(3).fill('code-smell/magic-numbers src/gone.ts#gone'),
      'duplication/duplicated-code src/kept.ts#kept',
    ]);
    expect(first.fixedFindings.find((f) => f.ruleId === 'code-smell/cognitive-complexity')?.anchor.lineStart).toBe(1);
    expect(first.newFindings.every((f) => f.filePath === 'src/fresh.ts')).toBe(true);
    expect(places(first.newFindings)).toEqual(expect.arrayContaining(['code-smell/cognitive-complexity src/fresh.ts#tangled']));
    expect(places(first.findings)).toEqual(
      expect.arrayContaining(['code-smell/cognitive-complexity src/kept.ts#kept', 'code-smell/deep-nesting src/kept.ts#kept']),
    );
    // From the merge base kept by the first review: the same fixed findings.
    const second = await engine.analyzeChange({ root: repo.root, base: 'main' });
    expect(second.baseline).toBe('cached');
    expect(places(second.fixedFindings)).toEqual(places(first.fixedFindings));
    // A cold review (another engine, nothing kept): the same fixed findings of file rules, kept's duplication not evaluated.
    const cold = await (await createEngine({ cacheDir: false })).analyzeChange({ root: repo.root, base: 'main' });
    expect(cold.baseline).toBe('changed-files');
    expect(places(cold.fixedFindings)).toEqual(places(first.fixedFindings).filter((place) => !place.startsWith('duplication/')));
    // No change (head = base): nothing new, nothing fixed.
    const none = await engine.analyzeChange({ root: repo.root, base: 'main', head: 'main' });
    expect([none.newFindings.length, none.fixedFindings.length]).toEqual([0, 0]);
  }, 60_000);
});
