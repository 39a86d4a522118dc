// A cold review without a cached merge base (changed-files-scope.ts) against the full one
// (`fullBase`), on one real git repository whose branch adds, simplifies, deletes, renames and
// edits files, leaves an importer of a changed file alone and adds an export nobody imports. For
// file rules the two must agree exactly on what the change adds and fixes; the cold review must
// say, in every format, which repository rules it did not evaluate; a change to the config makes it
// assess the base in full.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { createEngine } from '../di/create-engine.js';
import type { Finding } from '../domain/types.js';
import { changeToSarif, renderChangeMarkdown, renderChangeText } from '../report/change-report.js';
import { issueFingerprint } from '../report/issue-id.js';
import type { ChangeAnalysis } from './analyze-change.js';
import { rulesByKind } from './changed-files-scope.js';
import { changeKeyOf } from './issue-change.js';

const deep = (name: string) =>
  `export function ${name}(a: number, b: number, c: number): number {\n` +
  `  let t = 0;\n  for (let i = 0; i < a; i++) {\n    if (i % 2 === 0) {\n      for (let j = 0; j < b; j++) {\n        if (j > c) {\n          if (i && j) { t += i; } else if (c) { t -= j; } else { t++; }\n        } else if (j === c) {\n          while (t > 100) { t -= a || 1; if (t < 5) break; }\n        }\n      }\n    } else if (i % 3 === 0) {\n      t += b ? c : a;\n    }\n  }\n  return t;\n}\n`;
/** The same shape with other literals: its issues are not those of `deep` moved to another file. */
const other = (name: string, k: number) =>
  deep(name)
    .replace('t > 100', `t > ${k * 100}`)
    .replace('t < 5', `t < ${k + 5}`)
    .replace('i % 3', `i % ${k + 3}`);
const worse = (name: string) => deep(name).replace('t += b ? c : a;', 'if (a > b) {\n        if (b > c) { t += b ? c : a; } else { t--; }\n      }');

let repo: TestRepo;
let scoped: ChangeAnalysis;
let full: ChangeAnalysis;
let fileRules: Set<string>;

/** A finding as both reviews must report it: rule, place, symbol, line, severity and title. */
const keyOf = (f: Finding) => `${f.ruleId} ${f.filePath}#${f.symbol ?? ''}:${f.anchor.lineStart} ${f.severity} ${f.title}`;
const fileRuleKeys = (findings: readonly Finding[]) =>
  findings
    .filter((f) => fileRules.has(f.ruleId))
    .map(keyOf)
    .sort();

beforeAll(async () => {
  repo = createGitRepo({
    'package.json': '{ "name": "demo", "type": "module" }\n',
    'README.md': '# demo\n',
    'src/simple.ts': 'export const one = 1;\n',
    'src/legacy.ts': deep('legacy'),
    'src/grows.ts': deep('grows'),
    'src/gone.ts': other('gone', 2),
    'src/moved.ts': `${deep('moved')}export const MOVED = 1;\n`,
    'src/user.ts':
      "import { legacy } from './legacy.js';\nimport { grows } from './grows.js';\nexport const use = (): number => legacy(1, 2, 3) + grows(3, 2, 1);\n",
    'test/legacy.test.ts': "import { legacy } from '../src/legacy.js';\nif (legacy(1, 2, 3) !== 0) throw new Error('legacy');\n",
  });
  repo.git('checkout', '-q', '-b', 'feature');
  repo.git('rm', '-q', 'src/gone.ts');
  repo.git('mv', 'src/moved.ts', 'src/renamed.ts');
  repo.write({
    // New: a tangled function in a new file that no test loads, with magic numbers in an export nobody imports.
    'src/fresh.ts': `${other('fresh', 4)}export const ratio = (n: number): number => n * 86400 * 1.618;\n${other('twin', 8)}`,
    // A second copy of twin: a duplicated block, which only a repository rule (duplication) sees.
    'src/copy.ts': other('twin', 8),
    // Fixed: legacy becomes simple. Worsened: grows gets more branches.
    'src/legacy.ts': 'export function legacy(a: number, b: number, c: number): number {\n  return a + b + c;\n}\n',
    'src/grows.ts': worse('grows'),
    'src/renamed.ts': `${deep('moved')}export const MOVED = 2;\n`,
    'src/simple.ts': 'export const one = 1;\nexport const two = 2;\n',
    'README.md': '# demo\n\nNow with fresh.\n',
  });
  repo.commit('add fresh, simplify legacy, grow grows, drop gone, rename moved');
  const cold = await createEngine({ cacheDir: false });
  scoped = await cold.analyzeChange({ root: repo.root, base: 'main' });
  fileRules = rulesByKind(cold).file;
  await cold.close();
  const complete = await createEngine({ cacheDir: false });
  full = await complete.analyzeChange({ root: repo.root, base: 'main', fullBase: true });
  await complete.close();
}, 120_000);

afterAll(() => {
  if (repo) rmSync(repo.root, { recursive: true, force: true });
});

describe('a cold review analyses the changed files only', () => {
  it('is marked as such, and the full review as full', () => {
    expect(scoped.baseline).toBe('changed-files');
    expect(scoped.evaluation.mode).toBe('changed-files');
    expect(full.baseline).toBe('analysed');
    expect(full.evaluation).toEqual({ mode: 'full' });
    expect(scoped.changedFiles.map((f) => f.path).sort()).toEqual(full.changedFiles.map((f) => f.path).sort());
  });

  it('finds the same new, worsened and fixed findings of file rules as the full review', () => {
    const fullNew = fileRuleKeys(full.newFindings);
    // The case is not empty: something new in fresh.ts, something worse in grows.ts, something fixed in legacy.ts and gone.ts.
    expect(fullNew.some((k) => k.includes('src/fresh.ts#fresh'))).toBe(true);
    expect(fullNew.some((k) => k.includes('src/grows.ts#grows'))).toBe(true);
    expect(fileRuleKeys(full.fixedFindings).some((k) => k.includes('src/legacy.ts#legacy'))).toBe(true);
    expect(fileRuleKeys(full.fixedFindings).some((k) => k.includes('src/gone.ts#gone'))).toBe(true);
    expect(fileRuleKeys(scoped.newFindings)).toEqual(fullNew);
    expect(fileRuleKeys(scoped.fixedFindings)).toEqual(fileRuleKeys(full.fixedFindings));
    // The renamed file's old issue is kept on both sides, not new and fixed.
    expect(scoped.newFindings.some((f) => f.filePath === 'src/renamed.ts')).toBe(false);
    // And each the same way: new, or worsened from the same former value.
    const changes = (analysis: ChangeAnalysis) => {
      const seen = new Map<string, number>();
      const out: string[] = [];
      for (const finding of analysis.findings) {
        const fingerprint = issueFingerprint(finding);
        const occurrence = seen.get(fingerprint) ?? 0;
        seen.set(fingerprint, occurrence + 1);
        const change = analysis.issueChanges[changeKeyOf(fingerprint, occurrence)];
        if (fileRules.has(finding.ruleId) && analysis.newFindings.includes(finding)) out.push(`${keyOf(finding)} ${change?.change} ${change?.previousValue}`);
      }
      return out.sort();
    };
    expect(changes(scoped).some((line) => line.includes(' worsened '))).toBe(true);
    expect(changes(scoped)).toEqual(changes(full));
  });

  it('compares no repository rule, and lists every one as not evaluated', () => {
    // The full review does find what only a repository rule sees (a module no test loads, a duplicated block): the cold one cannot.
    const repositoryNew = full.newFindings.filter((f) => !fileRules.has(f.ruleId));
    expect(repositoryNew.length).toBeGreaterThan(0);
    expect([...scoped.newFindings, ...scoped.fixedFindings, ...scoped.findings].filter((f) => !fileRules.has(f.ruleId))).toEqual([]);
    if (scoped.evaluation.mode !== 'changed-files') throw new Error('not a changed-files review');
    for (const finding of repositoryNew) expect(scoped.evaluation.notEvaluatedRules).toContain(finding.ruleId);
    expect(scoped.evaluation.notEvaluatedRules).toContain('dead-code/unused-export');
    expect(scoped.evaluation.notEvaluatedRules.some((id) => fileRules.has(id))).toBe(false);
  });

  it('says what was not evaluated in text, Markdown, JSON and SARIF; the full review says nothing of the kind', () => {
    const text = renderChangeText(scoped);
    expect(text).toMatch(/^Not evaluated\n {2}- cold review: .*--full-base/m);
    expect(text).toMatch(/repository rules not evaluated \(\d+\): .*dead-code\/unused-export/);
    expect(text).toContain('health projection and scores: computed over the changed files');
    expect(text).toContain('merge base findings of the changed files only.');
    expect(renderChangeMarkdown(scoped)).toMatch(/^### Not evaluated\n\n- cold review: /m);
    expect(renderChangeMarkdown(scoped)).toContain('dead-code/unused-export');
    const json = JSON.parse(JSON.stringify(scoped)) as { evaluation: { mode: string; notEvaluatedRules: string[] } };
    expect(json.evaluation.mode).toBe('changed-files');
    expect(json.evaluation.notEvaluatedRules).toContain('dead-code/unused-export');
    const properties = changeToSarif(scoped).runs[0]!.properties as Record<string, unknown>;
    expect(properties.evaluation).toBe('changed-files');
    expect(properties.notEvaluatedRules).toContain('dead-code/unused-export');
    expect(changeToSarif(full).runs[0]!.properties).toMatchObject({ evaluation: 'full' });
    expect(changeToSarif(full).runs[0]!.properties).not.toHaveProperty('notEvaluatedRules');
    expect(renderChangeText(full)).not.toContain('Not evaluated');
    expect(renderChangeMarkdown(full)).not.toContain('Not evaluated');
  });
});

describe('a cold review that cannot compare like with like', () => {
  it('assesses the merge base in full when the change edits codehealth.config.json', async () => {
    const configured = createGitRepo({ 'src/a.ts': deep('a'), 'src/b.ts': 'export const b = 1;\n' });
    try {
      configured.git('checkout', '-q', '-b', 'feature');
      configured.write({ 'codehealth.config.json': '{ "exclude": ["src/a.ts"] }\n', 'src/b.ts': deep('b') });
      configured.commit('exclude a, tangle b');
      const engine = await createEngine({ cacheDir: false });
      const change = await engine.analyzeChange({ root: configured.root, base: 'main' });
      await engine.close();
      expect(change.evaluation).toEqual({ mode: 'full' });
      expect(change.baseline).toBe('analysed');
      expect(change.newFindings.some((f) => f.filePath === 'src/b.ts')).toBe(true);
    } finally {
      rmSync(configured.root, { recursive: true, force: true });
    }
  }, 60_000);
});
