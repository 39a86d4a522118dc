// SARIF import through the real engine on real git repositories: another tool's log, our own
// export round-tripped, configured paths, and paths that try to leave the repository.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, toSarif } from '@codehealth/engine';
import { createGitRepo } from '../../../../../test/helpers/git-repo.js';
import { codeSmell } from '../../code-smell/index.js';
import { sarifImport } from '../index.js';

/** The shape @microsoft/eslint-formatter-sarif writes for ESLint results. */
const eslintSarif = {
  version: '2.1.0',
  $schema: 'http://json.schemastore.org/sarif-2.1.0-rtm.5',
  runs: [
    {
      tool: {
        driver: {
          name: 'ESLint',
          informationUri: 'https://eslint.org',
          rules: [
            {
              id: 'no-unused-vars',
              shortDescription: { text: 'Disallow unused variables' },
              helpUri: 'https://eslint.org/docs/rules/no-unused-vars',
              properties: { category: 'Variables' },
            },
          ],
        },
      },
      artifacts: [{ location: { uri: 'file:///REPO/src/a.ts' } }],
      results: [
        {
          level: 'error',
          message: { text: "'unused' is assigned a value but never used." },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: 'file:///REPO/src/a.ts', index: 0 },
                region: { startLine: 2, startColumn: 7, endLine: 2, endColumn: 13 },
              },
            },
          ],
          ruleId: 'no-unused-vars',
          ruleIndex: 0,
        },
      ],
    },
  ],
};

const files = { 'src/a.ts': 'export const used = 1;\nconst unused = 2;\n', 'package.json': '{"name":"x"}' };

async function analyze(root: string, analyzers = [sarifImport], config = {}) {
  const engine = await createEngine({ plugins: [{ name: 'test', analyzers }], cacheDir: false, workers: 0 });
  return engine.analyze(root, { config });
}

describe('sarif-import/external-results', () => {
  it("imports another tool's log found in the repository, keeping its rule id", async () => {
    const repo = createGitRepo(files);
    repo.write({ 'reports/eslint.sarif': JSON.stringify(eslintSarif).replaceAll('file:///REPO', `file://${repo.root}`) });
    const { findings } = await analyze(repo.root);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      source: 'static_analyzer',
      ruleId: 'eslint/no-unused-vars',
      analyzerName: 'eslint',
      filePath: 'src/a.ts',
      severity: 'high',
      title: "'unused' is assigned a value but never used.",
      anchor: { lineStart: 2, lineEnd: 2, codeSnippet: 'const unused = 2;', validated: true },
    });
    expect(findings[0].whyItMatters).toBe('Disallow unused variables');
  });

  it('round-trips our own SARIF export', async () => {
    const body = Array.from({ length: 7 }, (_, i) => `  if (a > ${i}) { if (b) { for (;;) { if (c) { break; } } } }`).join('\n');
    const repo = createGitRepo({ 'src/complex.ts': `export function f(a: number, b: boolean, c: boolean) {\n${body}\n}\n` });
    const original = await analyze(repo.root, [codeSmell]);
    expect(original.findings.length).toBeGreaterThan(0);
    repo.write({ 'codehealth.sarif': JSON.stringify(toSarif(original)) });
    const imported = await analyze(repo.root);
    const shape = (f: (typeof original.findings)[number]) => [
      f.ruleId,
      f.analyzerName,
      f.severity,
      f.category,
      f.filePath,
      f.anchor,
      f.title,
      f.description,
      f.confidence,
      f.symbol,
    ];
    expect(imported.findings.map(shape)).toEqual(original.findings.map(shape));
  });

  it('reads configured files, also gitignored ones, and refuses paths outside the repository', async () => {
    const repo = createGitRepo({ ...files, '.gitignore': 'build/\n' });
    const log = JSON.stringify(eslintSarif).replaceAll('file:///REPO/', '');
    repo.write({ 'build/lint.sarif.json': log });
    const outside = createGitRepo({ 'x.sarif': log });
    const config = {
      rules: {
        'sarif-import/external-results': { options: { files: ['build/lint.sarif.json', `../${outside.root.split('/').pop()}/x.sarif`], autoDetect: false } },
      },
    };
    const result = await analyze(repo.root, [sarifImport], config);
    expect(result.findings.map((f) => [f.ruleId, f.filePath, f.anchor.lineStart])).toEqual([['eslint/no-unused-vars', 'src/a.ts', 2]]);
    expect(result.metrics.analyzerMetrics['sarif-import.importedFiles']).toBe(1);
  });

  it('reads a log through a link only when the link stays inside the repository, and never quotes a skipped file', async () => {
    const log = JSON.stringify(eslintSarif).replaceAll('file:///REPO/', '');
    const outside = createGitRepo({ 'x.sarif': log.replace('is assigned a value but never used.', 'OUTSIDE-SECRET-5ab') });
    const repo = createGitRepo({ ...files, 'build/lint.sarif.json': log, 'reports/notes.sarif': 'root:x:0:0:OUTSIDE-SECRET-5ab\n' });
    symlinkSync(join(outside.root, 'x.sarif'), join(repo.root, 'reports', 'out.sarif'));
    symlinkSync('../build/lint.sarif.json', join(repo.root, 'reports', 'in.sarif'));
    repo.commit('links');
    const config = { rules: { 'sarif-import/external-results': { options: { files: ['reports/out.sarif', 'reports/in.sarif'] } } } };
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [sarifImport] }], cacheDir: false, workers: 0 });
    const progress: string[] = [];
    const result = await engine.analyze(repo.root, { config, onProgress: (e) => progress.push(e.message) });
    // in.sarif and the inventoried build/lint.sarif.json are the same log: its one result, twice.
    expect(result.findings.map((f) => [f.ruleId, f.filePath, f.title])).toEqual([
      ['eslint/no-unused-vars', 'src/a.ts', "'unused' is assigned a value but never used."],
      ['eslint/no-unused-vars', 'src/a.ts', "'unused' is assigned a value but never used."],
    ]);
    expect(progress).toContain('SARIF file skipped: reports/out.sarif: reached through a symbolic link that leads outside the repository; not read');
    expect(progress).toContain('SARIF file reports/notes.sarif skipped: not valid JSON: unexpected character at line 1, column 1');
    expect(JSON.stringify({ result, progress })).not.toContain('OUTSIDE-SECRET-5ab');
  });

  it('skips a malformed log without failing the assessment, and detects SARIF files for onboarding', async () => {
    const repo = createGitRepo({ ...files, 'reports/broken.sarif': '{ "runs": 3 }' });
    expect((await analyze(repo.root)).findings).toEqual([]);
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [sarifImport] }], cacheDir: false, workers: 0 });
    expect(await engine.detect(repo.root)).toEqual([
      { analyzer: 'sarif-import', language: 'sarif', path: 'reports', enabled: true, description: 'Imports SARIF results from reports/broken.sarif' },
    ]);
  });
});
