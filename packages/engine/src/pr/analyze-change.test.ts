// engine.analyzeChange on real git repositories: the change's new and fixed findings against the
// merge base, the base defaulting to the default branch, the merge base's findings reused by a
// second review, and bad revisions refused in words.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { createEngine } from '../di/create-engine.js';
import { ChangeRefError } from './analyze-change.js';

const deep = (name: string) =>
  `export function ${name}(a: number, b: number, c: number): number {\n` +
  `  let t = 0;\n  for (let i = 0; i < a; i++) {\n    if (i % 2 === 0) {\n      for (let j = 0; j < b; j++) {\n        if (j > c) {\n          if (i && j) { t += i; } else if (c) { t -= j; } else { t++; }\n        } else if (j === c) {\n          while (t > 100) { t -= a || 1; if (t < 5) break; }\n        }\n      }\n    } else if (i % 3 === 0) {\n      t += b ? c : a;\n    }\n  }\n  return t;\n}\n`;

let repo: TestRepo | undefined;
afterEach(() => {
  if (repo) rmSync(repo.root, { recursive: true, force: true });
  repo = undefined;
});

describe('engine.analyzeChange', () => {
  it('reports the findings a branch adds, with the base defaulting to the default branch, and reuses the merge base a --full-base review kept', async () => {
    repo = createGitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/old.ts': deep('old') });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/b.ts': deep('tangled'), 'src/old.ts': 'export const old = 0;\n' });
    repo.commit('add tangled, simplify old');
    const engine = await createEngine({ cacheDir: false });
    const first = await engine.analyzeChange({ root: repo.root, fullBase: true });
    expect(first.base.ref).toBe('main');
    expect(first.mergeBaseSha).toBe(repo.git('rev-parse', 'main'));
    expect(first.changedFiles.map((f) => f.path).sort()).toEqual(['src/b.ts', 'src/old.ts']);
    // New findings only on changed code: src/a.ts (unchanged) has none.
    expect(first.newFindings.length).toBeGreaterThan(0);
    expect(first.newFindings.every((f) => f.filePath === 'src/b.ts' || f.filePath === 'src/old.ts')).toBe(true);
    expect(['ready', 'needs_review', 'blocked']).toContain(first.readiness.status);
    expect(first.baseline).toBe('analysed');
    const second = await engine.analyzeChange({ root: repo.root, base: 'main' });
    // Cached: every rule compared, though this review did not ask for the full base.
    expect(second.baseline).toBe('cached');
    expect(second.evaluation).toEqual({ mode: 'full' });
    expect(second.newFindings.map((f) => f.ruleId).sort()).toEqual(first.newFindings.map((f) => f.ruleId).sort());
  }, 60_000);

  it('counts a metric issue the change made worse as introduced, one it kept as it was not', async () => {
    const worse = deep('w').replace('t += b ? c : a;', 'if (a > b) {\n        if (b > c) { t += b ? c : a; } else { t--; }\n      }');
    repo = createGitRepo({ 'src/w.ts': deep('w'), 'src/k.ts': deep('k') });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/w.ts': worse, 'src/k.ts': `${deep('k')}export const K = 1;\n` });
    repo.commit('more cases in w');
    const change = await (await createEngine({ cacheDir: false })).analyzeChange({ root: repo.root });
    const complexity = (path: string) => change.findings.find((f) => f.filePath === path && f.ruleId.endsWith('cognitive-complexity'));
    expect(complexity('src/w.ts')).toBeDefined();
    expect(complexity('src/k.ts')).toBeDefined();
    // w's complexity grew: the same issue, worsened, and introduced by the change; k's is pre-existing.
    expect(change.newFindings).toContain(complexity('src/w.ts'));
    expect(change.newFindings).not.toContain(complexity('src/k.ts'));
    expect(Object.values(change.issueChanges).map((c) => c.change)).toContain('worsened');
    expect(change.healthImpact.issues_worsened).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a revision that names no commit', async () => {
    repo = createGitRepo({ 'a.ts': 'export const a = 1;\n' });
    const engine = await createEngine({ cacheDir: false });
    const error = await engine.analyzeChange({ root: repo.root, base: 'no-such-branch' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChangeRefError);
    expect((error as Error).message).toMatch(/'no-such-branch' is not a commit/);
  });
});
