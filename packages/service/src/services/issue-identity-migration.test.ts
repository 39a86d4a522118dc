// Migration 0008 (issue identity v2) on a store that holds issues, dismissals and restorations
// recorded before it, the way the code of that time wrote them (fingerprint = the former
// formula): after the migration no dismissal is lost — the old rows keep theirs, the next runs'
// copies of the same issues are dismissed (or kept restored) and not new, and once a run has met
// an issue again its dismissal also survives a re-format that changes the former fingerprint.
// On the embedded store (PGlite) and on real Postgres.
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, issueFingerprint } from '@codehealth/engine';
import type { Finding } from '@codehealth/engine';
import { identityRepoFiles } from '../../../../test/helpers/identity-code.js';
import { legacyIssueFingerprint } from '@codehealth/engine/internal';
import type { Database } from '../store/database.js';
import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '../store/migrations.js';
import { PgliteDatabase } from '../store/pglite-database.js';
import { PostgresDatabase } from '../store/postgres-database.js';
import { testPostgresUrl } from '../store/test-database.js';
import { ProjectAccess } from './access.js';
import { seedProject, type SeededProject } from './fixtures/seeded-project.js';
import { applyDismissRules, fingerprintToken, insertContextIssues, SEVERITY_RANK } from './issue-records.js';
import { IssueService } from './issues.js';

const temp: string[] = [];
afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The migrations as they were before identity v2 (up to 0007). */
function migrationsBeforeV2(): string {
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-migrations-v1-'));
  temp.push(dir);
  for (const file of readdirSync(DEFAULT_MIGRATIONS_DIR)) if (file < '0008') cpSync(join(DEFAULT_MIGRATIONS_DIR, file), join(dir, file));
  return dir;
}

/** Real findings of the orders module as first written and after a prettier-style re-format. */
let compact: Finding[];
let prettier: Finding[];
beforeAll(async () => {
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  const analyse = async (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'codehealth-identity-'));
    temp.push(root);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    return (await engine.analyze(root, { allowCodeConfig: false })).findings;
  };
  compact = await analyse(identityRepoFiles());
  prettier = await analyse(identityRepoFiles({ style: 'prettier' }));
}, 60_000);

/** A completed assessment recorded the way the code before identity v2 did (its INSERT, its fingerprint). */
async function recordBeforeV2(db: Database, projectId: string, findings: readonly Finding[]): Promise<string> {
  const contextId = randomUUID();
  await db.query("INSERT INTO health_assessments (id, project_id, trigger_type, status, completed_at) VALUES ($1, $2, 'manual', 'completed', now())", [
    contextId,
    projectId,
  ]);
  for (const f of findings) {
    await db.query(
      `INSERT INTO issues (id, project_id, context_type, context_id, fingerprint, source, severity, severity_rank, category, file_path,
         file_group, line_start, line_end, code_snippet, validated, title, rule_id, analyzer_name, confidence, is_new, file_role)
       VALUES ($1, $2, 'health_assessment', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, true, $14, $15, $16, $17, false, 'production')`,
      [
        randomUUID(),
        projectId,
        contextId,
        legacyIssueFingerprint(f),
        f.source,
        f.severity,
        SEVERITY_RANK[f.severity],
        f.category,
        f.filePath,
        f.fileGroup,
        f.anchor.lineStart,
        f.anchor.lineEnd,
        f.anchor.codeSnippet,
        f.title,
        f.ruleId,
        f.analyzerName,
        f.confidence,
      ],
    );
  }
  return contextId;
}

async function recordRun(db: Database, projectId: string, findings: readonly Finding[], baseline: string): Promise<string> {
  const contextId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query(
      "INSERT INTO health_assessments (id, project_id, trigger_type, status, completed_at) VALUES ($1, $2, 'manual', 'completed', clock_timestamp())",
      [contextId, projectId],
    );
    await insertContextIssues(
      tx,
      { projectId, contextType: 'health_assessment', contextId, baselineContextIds: [baseline] },
      findings.map((finding) => ({ finding, repositoryId: null })),
    );
  });
  return contextId;
}

interface Row extends Record<string, unknown> {
  id: string;
  rule_id: string;
  fingerprint: string;
  legacy_fingerprint: string | null;
  is_new: boolean;
  is_dismissed: boolean;
}
const rowsOf = (db: Database, contextId: string) =>
  db.query<Row>('SELECT id, rule_id, fingerprint, legacy_fingerprint, is_new, is_dismissed FROM issues WHERE context_id = $1 ORDER BY rule_id, line_start', [
    contextId,
  ]);
const dismissedRules = async (db: Database, contextId: string) => (await rowsOf(db, contextId)).filter((row) => row.is_dismissed).map((row) => row.rule_id);

async function scenario(db: Database): Promise<void> {
  await migrateUp(db, migrationsBeforeV2());
  const seeded: SeededProject = await seedProject(db);
  const { projectId } = seeded;
  const evalOf = (findings: readonly Finding[]) => findings.find((f) => f.ruleId === 'security/no-eval')!;
  const paramsOf = (findings: readonly Finding[]) => findings.find((f) => f.ruleId === 'code-smell/too-many-parameters')!;
  // The re-format changes the former fingerprint of the eval (its comment moved), not its v2 one.
  expect(legacyIssueFingerprint(evalOf(prettier))).not.toBe(legacyIssueFingerprint(evalOf(compact)));
  expect(issueFingerprint(evalOf(prettier))).toBe(issueFingerprint(evalOf(compact)));

  // Before v2: the eval dismissed as a false positive (a rule pinned to its fingerprint); every
  // too-many-parameters issue dismissed by a broad rule, then this one restored.
  const old = await recordBeforeV2(db, projectId, compact);
  const pinned = randomUUID();
  await db.query(
    `INSERT INTO dismiss_rules (id, project_id, source_type, rule_pattern, secondary_pattern, scope, file_path, action, created_at)
     VALUES ($1, $2, 'static_analyzer', 'security/no-eval', $3, 'file', 'src/orders.ts', 'false_positive', now() - interval '2 days')`,
    [pinned, projectId, fingerprintToken(legacyIssueFingerprint(evalOf(compact)))],
  );
  await db.query(
    "INSERT INTO dismiss_rules (id, project_id, rule_pattern, created_at) VALUES ($1, $2, 'code-smell/too-many-parameters', now() - interval '2 days')",
    [randomUUID(), projectId],
  );
  await db.query("INSERT INTO issue_restorations (project_id, fingerprint, restored_at) VALUES ($1, $2, now() - interval '1 day')", [
    projectId,
    legacyIssueFingerprint(paramsOf(compact)),
  ]);
  await db.query('UPDATE issues SET is_dismissed = true, dismissed_by_rule_id = $2 WHERE project_id = $1 AND rule_id = $3', [
    projectId,
    pinned,
    'security/no-eval',
  ]);

  await migrateUp(db);

  // The old rows keep their dismissals when the rules are applied again.
  await db.transaction((tx) => applyDismissRules(tx, projectId));
  expect(await dismissedRules(db, old)).toEqual(['security/no-eval']);

  // The next run of the same code: nothing new, the eval dismissed, the restored issue active.
  const next = await recordRun(db, projectId, compact, old);
  const rows = await rowsOf(db, next);
  expect(rows.filter((row) => row.is_new)).toEqual([]);
  expect(await dismissedRules(db, next)).toEqual(['security/no-eval']);
  expect(rows.every((row) => row.legacy_fingerprint !== null && row.fingerprint !== row.legacy_fingerprint)).toBe(true);
  // It mapped the old rows and the pinned rule onto v2.
  const v2 = issueFingerprint(evalOf(compact));
  expect((await rowsOf(db, old)).find((row) => row.rule_id === 'security/no-eval')).toMatchObject({
    fingerprint: v2,
    legacy_fingerprint: legacyIssueFingerprint(evalOf(compact)),
    is_dismissed: true,
  });
  expect(await db.query('SELECT secondary_pattern FROM dismiss_rules WHERE id = $1', [pinned])).toEqual([{ secondary_pattern: fingerprintToken(v2) }]);

  // A re-format changes the former fingerprints: the issues are still the same, the dismissal holds.
  const reformatted = await recordRun(db, projectId, prettier, next);
  expect((await rowsOf(db, reformatted)).filter((row) => row.is_new)).toEqual([]);
  expect(await dismissedRules(db, reformatted)).toEqual(['security/no-eval']);

  // Restoring the issue reaches every run, the one recorded before v2 included.
  const issues = new IssueService(db, new ProjectAccess(db));
  const evalRow = (await rowsOf(db, reformatted)).find((row) => row.rule_id === 'security/no-eval')!;
  await issues.restore(seeded.owner, projectId, evalRow.id);
  for (const run of [old, next, reformatted]) expect(await dismissedRules(db, run)).toEqual([]);
  expect(await db.query('SELECT id FROM dismiss_rules WHERE id = $1', [pinned])).toEqual([]);
  // Dismissing it again pins one rule to its v2 identity, which hides it everywhere it is known by it.
  await issues.dismiss(seeded.owner, projectId, evalRow.id, { action: 'wont_fix' });
  for (const run of [old, next, reformatted]) expect(await dismissedRules(db, run)).toEqual(['security/no-eval']);
}

describe('migration 0008: issue identity v2 keeps every dismissal', () => {
  it('on the embedded store (PGlite)', async () => {
    const db = await PgliteDatabase.open();
    try {
      await scenario(db);
    } finally {
      await db.close();
    }
  }, 60_000);

  const url = testPostgresUrl();
  it.skipIf(!url)(
    'on real Postgres',
    async () => {
      const admin = await PostgresDatabase.connect(url!, { max: 1 });
      const name = `codehealth_identity_${process.pid}_${Date.now()}`;
      await admin.exec(`CREATE DATABASE ${name}`);
      const target = new URL(url!);
      target.pathname = `/${name}`;
      const db = await PostgresDatabase.connect(target.toString(), { max: 2 });
      try {
        await scenario(db);
      } finally {
        await db.close();
        await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      }
    },
    60_000,
  );
});
