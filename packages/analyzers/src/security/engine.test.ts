// The security analyzer through the real engine on a mini monorepo written to a temp directory:
// onboarding detection per package root, and the exact findings across files and file kinds.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEngine } from '@codehealth/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { security } from './index.js';

// Assembled at run time so that this file holds no key in a provider's format.
const AWS_KEY = 'AKIA' + 'QX7PLM2ZK4RTV9WN';

const FILES: Record<string, string> = {
  'package.json': '{ "name": "root", "private": true, "workspaces": ["packages/*"] }',
  'packages/api/package.json': '{ "name": "api" }',
  'packages/api/src/routes.ts': [
    "import { readFile } from 'node:fs/promises';",
    "import { pool } from './db.js';",
    '',
    "router.get('/users/:id', async (req, res) => {",
    '  const rows = await pool.query(`SELECT * FROM users WHERE id = ${req.params.id}`);',
    '  res.json(rows);',
    '});',
    '',
    "router.get('/files', async (req, res) => {",
    '  const name = req.query.name;',
    "  res.send(await readFile(`./uploads/${name}`, 'utf8'));",
    '});',
  ].join('\n'),
  'packages/api/src/db.ts': `export const pool = createPool({ user: 'app', accessKeyId: '${AWS_KEY}' });\n`,
  'packages/api/src/routes.test.ts': `const key = '${AWS_KEY}';\nconst password = 'Tr0ub4dor&3xyz';\n`,
  'packages/legacy/package.json': '{ "name": "legacy" }',
  'packages/legacy/lib/index.js': "const { exec } = require('child_process');\nmodule.exports = (dir) => exec('ls ' + dir);\n",
  'packages/docs/package.json': '{ "name": "docs" }',
  'packages/docs/README.md': '# Docs\n',
  'packages/api/src/fixtures/planted.ts': 'eval(input);\n',
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'codehealth-security-'));
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('security analyzer in the engine', () => {
  it('detects one entry per package root with TS/JS sources, in path order', async () => {
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [security] }], cacheDir: false, workers: 0 });
    const detections = await engine.detect(root);
    expect(detections.map(({ analyzer, language, path, enabled }) => ({ analyzer, language, path, enabled }))).toEqual([
      { analyzer: 'security', language: 'typescript', path: 'packages/api', enabled: true },
      { analyzer: 'security', language: 'javascript', path: 'packages/legacy', enabled: true },
    ]);
    expect(detections[0].description).toMatch(/^Security checks on 2 TypeScript\/JavaScript source files: /);
  });

  it('reports exactly the planted issues, with test files limited to live-format keys and fixtures ignored', async () => {
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [security] }], cacheDir: false, workers: 0 });
    const result = await engine.analyze(root);
    const findings = result.findings
      .map((f) => ({ rule: f.ruleId, file: f.filePath, line: f.anchor.lineStart, severity: f.severity, category: f.category, source: f.source }))
      .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    const base = { category: 'security', source: 'static_analyzer' };
    expect(findings).toEqual([
      { ...base, rule: 'security/hard-coded-secret', file: 'packages/api/src/db.ts', line: 1, severity: 'critical' },
      { ...base, rule: 'security/hard-coded-secret', file: 'packages/api/src/routes.test.ts', line: 1, severity: 'medium' },
      { ...base, rule: 'security/sql-injection', file: 'packages/api/src/routes.ts', line: 5, severity: 'critical' },
      { ...base, rule: 'security/path-traversal', file: 'packages/api/src/routes.ts', line: 11, severity: 'high' },
      { ...base, rule: 'security/command-injection', file: 'packages/legacy/lib/index.js', line: 2, severity: 'high' },
    ]);
    expect(result.findings.every((f) => f.anchor.validated && f.anchor.codeSnippet.length > 0)).toBe(true);
    expect(result.scores.categories.security.score).toBeLessThan(100);
  });
});
