import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueFingerprint } from '@codehealth/engine';
import type { Finding } from '@codehealth/engine';
import type { Database } from '../store/database.js';
import { createTestDatabase } from '../store/test-database.js';
import {
  applyDismissRules,
  compileDismissRule,
  fingerprintToken,
  globProblem,
  insertContextIssues,
  issueRowOf,
  type IssueMatchFields,
} from './issue-records.js';

const issue = (fields: Partial<IssueMatchFields> = {}): IssueMatchFields => ({
  fingerprint: 'ab12',
  source: 'static_analyzer',
  rule_id: 'security/no-eval',
  title: 'eval() compiles a string in run',
  file_path: 'app/[id]/page.tsx',
  code_snippet: "  return eval('n');",
  ...fields,
});
const rule = (fields: Partial<Parameters<typeof compileDismissRule>[0]>) =>
  compileDismissRule({ source_type: null, rule_pattern: '*', secondary_pattern: null, scope: 'global', file_path: '', ...fields });

describe('compileDismissRule', () => {
  it('matches rule ids or titles with case-insensitive globs whose single * crosses /', () => {
    expect(rule({ rule_pattern: 'security/*' })(issue())).toBe(true);
    expect(rule({ rule_pattern: 'SECURITY/NO-*' })(issue())).toBe(true);
    expect(rule({ rule_pattern: 'sec*eval' })(issue())).toBe(true);
    expect(rule({ rule_pattern: 'eval() compiles*' })(issue())).toBe(true);
    expect(rule({ rule_pattern: 'runtime/*' })(issue())).toBe(false);
    expect(rule({ rule_pattern: 'security/{no-eval,sql-injection}' })(issue())).toBe(true);
    expect(rule({ rule_pattern: '!runtime/*' })(issue())).toBe(true);
    expect(rule({ rule_pattern: '!security/*' })(issue())).toBe(false);
  });

  it('reads parentheses and | literally (titles and paths hold them)', () => {
    expect(rule({ rule_pattern: '*takes 6 parameters (max 5)' })(issue({ title: 'helper takes 6 parameters (max 5)' }))).toBe(true);
    expect(rule({ rule_pattern: '*takes 6 parameters (max 5)' })(issue({ title: 'helper takes 6 parameters max 5' }))).toBe(false);
    expect(rule({ rule_pattern: 'a|b' })(issue({ rule_id: 'a' }))).toBe(false);
    expect(rule({ scope: 'file', file_path: 'app/(marketing)/**' })(issue({ file_path: 'app/(marketing)/page.tsx' }))).toBe(true);
    expect(rule({ scope: 'file', file_path: 'app/(marketing)/**' })(issue({ file_path: 'app/marketing/page.tsx' }))).toBe(false);
    expect(rule({ rule_pattern: 'eval\\(\\)*' })(issue())).toBe(true);
  });

  it('matches adversarial patterns (picomatch took 14.7 s on the first) correctly', () => {
    const title = `${'x'.repeat(5_000)} runs`;
    expect(rule({ secondary_pattern: '*?*?*?*?*?*?*?Z' })(issue({ title }))).toBe(false);
    expect(rule({ secondary_pattern: '*?*?*?*?*?*?*?S' })(issue({ title }))).toBe(true);
    expect(rule({ rule_pattern: '*?'.repeat(500) })(issue({ title }))).toBe(true);
    expect(rule({ scope: 'file', file_path: 'a*a*a*a*a*a*a*a*b' })(issue({ file_path: 'a'.repeat(5_000) }))).toBe(false);
    // A stored pattern the matcher now refuses matches nothing instead of failing every run.
    expect(rule({ rule_pattern: '{a,b}\\1' })(issue())).toBe(false);
    expect(rule({ rule_pattern: '{a,b}\\1' })(issue({ rule_id: '{a,b}\\1' }))).toBe(true);
  });

  it('matches a pattern equal to the value even when it holds glob characters', () => {
    expect(rule({ rule_pattern: 'ext/[x]rule' })(issue({ rule_id: 'ext/[x]rule' }))).toBe(true);
    expect(rule({ scope: 'file', file_path: 'app/[id]/page.tsx' })(issue())).toBe(true);
    expect(rule({ scope: 'file', file_path: 'app/[id]/other.tsx' })(issue())).toBe(false);
  });

  it('narrows by file glob (segment-bound *, case-sensitive), source and secondary pattern', () => {
    expect(rule({ scope: 'file', file_path: 'app/**' })(issue())).toBe(true);
    expect(rule({ scope: 'file', file_path: 'app/*.tsx' })(issue())).toBe(false);
    expect(rule({ scope: 'file', file_path: 'APP/**' })(issue())).toBe(false);
    expect(rule({ scope: 'file', file_path: '' })(issue())).toBe(false);
    expect(rule({ scope: 'project', file_path: 'nothing/**' })(issue())).toBe(true);
    expect(rule({ source_type: 'graph_rule' })(issue())).toBe(false);
    expect(rule({ source_type: 'static_analyzer' })(issue())).toBe(true);
    expect(rule({ secondary_pattern: fingerprintToken('ab12') })(issue())).toBe(true);
    expect(rule({ secondary_pattern: fingerprintToken('ab13') })(issue())).toBe(false);
    expect(rule({ secondary_pattern: "*eval('n')*" })(issue())).toBe(true);
    expect(rule({ secondary_pattern: '*compiles*' })(issue())).toBe(true);
    expect(rule({ secondary_pattern: '!*eval*' })(issue())).toBe(false);
    expect(rule({ secondary_pattern: '!*exec*' })(issue())).toBe(true);
  });
});

describe('globProblem', () => {
  it('accepts globs and refuses patterns picomatch would silently never match', () => {
    for (const ok of ['security/*', '*.{ts,tsx}', 'app/[id]/page.tsx', "*exec('ls*", '(unbalanced', 'a\\*b', '['])
      expect(globProblem(ok, 'rule'), ok).toBeUndefined();
    for (const bad of ['security/{a,b', 'a{', 'trailing\\', '[z-a]']) expect(globProblem(bad, 'rule'), bad).toMatch(/is not a valid glob/);
    expect(globProblem('src/[z-a]/x.ts', 'file')).toMatch(/is not a valid glob/);
    expect(globProblem('x'.repeat(1001), 'rule')).toBe('is longer than 1000 characters');
    expect(globProblem('{a,b}\\1', 'rule')).toMatch(/uses backreferences/);
    expect(globProblem('*?'.repeat(500), 'rule')).toBeUndefined();
  });
});

describe('issueRowOf', () => {
  it("takes a PR's change and is_new per finding, equal fingerprints told apart by their order", () => {
    const long = (line: number): Finding => ({
      source: 'static_analyzer',
      severity: 'medium',
      category: 'code_smell',
      filePath: 'src/a.test.ts',
      fileGroup: 'src',
      anchor: { lineStart: line, lineEnd: line + 90, codeSnippet: "describe('x', () => {", validated: true },
      title: 'long',
      description: '',
      whyItMatters: '',
      suggestedAction: '',
      ruleId: 'code-smell/long-function',
      analyzerName: 'code-smell',
      confidence: 90,
      autoFixable: false,
      symbol: 'describe callback',
      metric: { values: ['lines'] },
      data: { lines: 90 },
    });
    const fp = issueFingerprint(long(1));
    const changes = { [fp]: { change: 'worsened' as const, previousValue: 85 }, [`${fp}#1`]: { change: 'new' as const } };
    const occurrences = new Map<string, number>();
    const everyNew = () => true;
    const rows = [long(1), long(200)].map((finding) => issueRowOf('ctx', { finding, repositoryId: null }, occurrences, everyNew, changes));
    expect(rows.map((row) => [row.fingerprint === fp, row.change, row.previous_value, row.is_new])).toEqual([
      [true, 'worsened', 85, false],
      [true, 'new', null, true],
    ]);
  });
});

describe('applyDismissRules', () => {
  let db: Database;
  let projectId: string;
  const finding: Finding = {
    source: 'static_analyzer',
    severity: 'high',
    category: 'security',
    filePath: 'src/run.ts',
    fileGroup: 'src',
    anchor: { lineStart: 3, lineEnd: 3, codeSnippet: "exec('ls ' + dir);", validated: true },
    title: 'exec() runs a shell command built from `dir` in run',
    description: '',
    whyItMatters: '',
    suggestedAction: '',
    ruleId: 'security/command-injection',
    analyzerName: 'security',
    confidence: 90,
    autoFixable: false,
    symbol: 'run',
  };
  const fingerprint = issueFingerprint(finding);
  const dismissed = async () =>
    (await db.query<{ is_dismissed: boolean }>('SELECT is_dismissed FROM issues WHERE project_id = $1', [projectId])).map((r) => r.is_dismissed);

  beforeAll(async () => {
    ({ db } = await createTestDatabase('pglite'));
    projectId = randomUUID();
    await db.query("INSERT INTO projects (id, name, key) VALUES ($1, 'p', 'p')", [projectId]);
    await db.transaction((tx) =>
      insertContextIssues(tx, { projectId, contextType: 'health_assessment', contextId: randomUUID() }, [{ finding, repositoryId: null }]),
    );
  });
  afterAll(() => db?.close());

  it('tells a rule created one microsecond after a restoration from one created before it', async () => {
    const restoredAt = '2026-01-01T00:00:00.000500Z';
    await db.query('INSERT INTO issue_restorations (project_id, fingerprint, restored_at) VALUES ($1, $2, $3)', [projectId, fingerprint, restoredAt]);
    const insertRule = (createdAt: string) =>
      db.query("INSERT INTO dismiss_rules (id, project_id, rule_pattern, created_at) VALUES ($1, $2, 'security/*', $3::timestamptz) RETURNING id", [
        randomUUID(),
        projectId,
        createdAt,
      ]);
    await insertRule('2026-01-01T00:00:00.000499Z');
    expect(await db.transaction((tx) => applyDismissRules(tx, projectId))).toBe(0);
    expect(await dismissed()).toEqual([false]);
    const [later] = await insertRule('2026-01-01T00:00:00.000501Z');
    expect(await db.transaction((tx) => applyDismissRules(tx, projectId))).toBe(1);
    expect(await db.query('SELECT dismissed_by_rule_id FROM issues WHERE project_id = $1', [projectId])).toEqual([{ dismissed_by_rule_id: later!.id }]);
  });
});
