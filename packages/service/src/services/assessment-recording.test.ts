// Recording a large assessment (real engine results of a repository with thousands of findings):
// its issues go in short batches with the store and the event loop free between them (a query
// issued meanwhile is answered before the recording ends), the run is seen whole or not at all (a
// failure or a take-over half-way leaves nothing visible and the retry records it exactly once),
// and the per-rule cap lists at most K issues of a rule plus one "N more" record while the scores
// and counts stay those of the uncapped run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessNoisyRepo } from '../../../../test/helpers/noisy-repo.js';
import type { AssessedVersion } from '../../../../test/helpers/assessed-repo.js';
import type { Database, Sql } from '../store/database.js';
import { createTestDatabase, testPostgresUrl, type TestStoreKind } from '../store/test-database.js';
import { ProjectAccess } from './access.js';
import { AssessmentRecorder, type RepositoryAssessment } from './assessment-recorder.js';
import { seedProject } from './fixtures/seeded-project.js';
import { IssueService } from './issues.js';

let noisy: AssessedVersion;
beforeAll(async () => {
  noisy = await assessNoisyRepo(40, 6);
}, 120_000);

const input = (repositoryId: string, version: AssessedVersion): RepositoryAssessment => ({
  repositoryId,
  repository: { name: 'repo0', full_name: 'acme/repo0' },
  commitSha: version.sha,
  result: version.result,
});

/** The store, except that the `failAt`-th issue insert throws (a crash half-way through a recording). */
function failingInsert(db: Database, failAt: number): Database {
  let inserts = 0;
  const wrap = (tx: Sql): Sql => ({
    query: (text, params) => {
      if (text.startsWith('INSERT INTO issues') && ++inserts === failAt) return Promise.reject(new Error('store went away'));
      return tx.query(text, params);
    },
    exec: (script) => tx.exec(script),
  });
  return Object.assign(Object.create(db) as Database, { transaction: <T>(fn: (tx: Sql) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))) });
}

const SCORE_FIELDS = [
  'overall_score',
  'overall_grade',
  'security_score',
  'runtime_risks_score',
  'code_smell_score',
  'compliance_score',
  'critical_count',
  'high_count',
  'medium_count',
  'low_count',
  'info_count',
  'total_lines_of_code',
];

for (const store of ['pglite', 'postgres'] as const satisfies readonly TestStoreKind[]) {
  const run = store === 'postgres' && !testPostgresUrl() ? describe.skip : describe;
  run(`recording a large assessment [${store}]`, () => {
    let db: Database;
    let dispose: () => Promise<void>;
    let issues: IssueService;

    beforeAll(async () => {
      ({ db, dispose } = await createTestDatabase(store));
      issues = new IssueService(db, new ProjectAccess(db));
    });
    afterAll(() => dispose?.());

    const countIssues = async (contextId: string) =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [contextId]))[0]!.n;

    it('writes in batches: a query issued during the recording is answered first, and nothing is listed until the run completes', async () => {
      const total = noisy.result.findings.length;
      expect(total).toBeGreaterThan(2_000);
      const { projectId, repoIds, owner } = await seedProject(db);
      const recorder = new AssessmentRecorder(db, { issueBatchSize: 100, maxIssuesPerRule: 0 });
      const assessment = await recorder.create(projectId, 'manual');
      await recorder.markRunning(assessment.id);

      const order: string[] = [];
      const recording = recorder.complete(assessment.id, [input(repoIds[0]!, noisy)]).then((done) => {
        order.push('recording finished');
        return done;
      });
      let written = 0;
      while (written === 0) written = await countIssues(assessment.id);
      const probe = db.query('SELECT 1').then(() => order.push('query answered'));
      const midway = await issues.list(owner, projectId, { context_id: assessment.id, limit: 50, offset: 0 });
      const [status] = await db.query<{ status: string }>('SELECT status FROM health_assessments WHERE id = $1', [assessment.id]);
      const done = await recording;
      await probe;

      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(total); // seen between batches, not after one big statement
      expect(order).toEqual(['query answered', 'recording finished']);
      expect(status!.status).toBe('running');
      expect(midway).toEqual({ issues: [], total: 0 }); // nothing of a run being recorded is listed
      expect(done).toMatchObject({ status: 'completed', issues: total });
      expect((await issues.list(owner, projectId, { context_id: assessment.id, limit: 1, offset: 0 })).total).toBe(total);
    });

    it('a failure half-way leaves no visible trace; the retry records every issue once', async () => {
      const total = noisy.result.findings.length;
      const { projectId, repoIds, owner } = await seedProject(db);
      const broken = new AssessmentRecorder(failingInsert(db, 5), { issueBatchSize: 200, maxIssuesPerRule: 0 });
      const assessment = await broken.create(projectId, 'manual');
      await broken.markRunning(assessment.id);
      await expect(broken.complete(assessment.id, [input(repoIds[0]!, noisy)])).rejects.toThrow('store went away');
      expect(await countIssues(assessment.id)).toBe(4 * 200); // written, but not published:
      expect((await issues.list(owner, projectId, { context_type: 'health_assessment', limit: 1, offset: 0 })).total).toBe(0);
      expect((await issues.stats(owner, projectId, { context_id: assessment.id })).total).toBe(0);

      const retried = await new AssessmentRecorder(db, { issueBatchSize: 200, maxIssuesPerRule: 0 }).complete(assessment.id, [input(repoIds[0]!, noisy)]);
      expect(retried).toMatchObject({ status: 'completed', issues: total });
      expect(await countIssues(assessment.id)).toBe(total);
      expect((await issues.list(owner, projectId, { limit: 1, offset: 0 })).total).toBe(total);
    });

    it('a second attempt takes the recording over: the first stops at its next batch, the run is recorded once', async () => {
      const total = noisy.result.findings.length;
      const { projectId, repoIds } = await seedProject(db);
      const recorder = new AssessmentRecorder(db, { issueBatchSize: 100, maxIssuesPerRule: 0 });
      const assessment = await recorder.create(projectId, 'manual');
      await recorder.markRunning(assessment.id);
      const first = recorder.complete(assessment.id, [input(repoIds[0]!, noisy)]);
      while ((await countIssues(assessment.id)) === 0);
      const second = await recorder.complete(assessment.id, [input(repoIds[0]!, noisy)]);
      expect(second).toMatchObject({ status: 'completed', issues: total });
      expect(await first).toMatchObject({ status: 'already_finished' });
      expect(await countIssues(assessment.id)).toBe(total);
      const [row] = await db.query<{ status: string; recording_token: string | null }>('SELECT status, recording_token FROM health_assessments WHERE id = $1', [
        assessment.id,
      ]);
      expect(row).toEqual({ status: 'completed', recording_token: null });
    });

    it('a failed run loses the issues an attempt had written', async () => {
      const { projectId, repoIds } = await seedProject(db);
      const assessment = await new AssessmentRecorder(db).create(projectId, 'manual');
      await expect(
        new AssessmentRecorder(failingInsert(db, 3), { issueBatchSize: 100 }).complete(assessment.id, [input(repoIds[0]!, noisy)]),
      ).rejects.toThrow();
      expect(await countIssues(assessment.id)).toBe(200);
      expect((await new AssessmentRecorder(db).fail(assessment.id, 'boom')).status).toBe('failed');
      expect(await countIssues(assessment.id)).toBe(0);
    });

    it('caps issues per rule with one "N more" record per rule, scores and counts equal to the uncapped run', async () => {
      const findings = noisy.result.findings;
      const perRule = new Map<string, number>();
      for (const f of findings) perRule.set(f.ruleId, (perRule.get(f.ruleId) ?? 0) + 1);
      const cap = 150;
      const cappedRules = [...perRule].filter(([, n]) => n > cap);
      expect(cappedRules.length).toBeGreaterThanOrEqual(3);

      const record = async (maxIssuesPerRule: number) => {
        const { projectId, repoIds, owner } = await seedProject(db);
        const recorder = new AssessmentRecorder(db, { maxIssuesPerRule });
        const assessment = await recorder.create(projectId, 'manual');
        const done = await recorder.complete(assessment.id, [input(repoIds[0]!, noisy)]);
        const [row] = await db.query<Record<string, unknown>>('SELECT * FROM health_assessments WHERE id = $1', [assessment.id]);
        return { done, row: row!, projectId, owner, assessmentId: assessment.id };
      };
      const uncapped = await record(0);
      const capped = await record(cap);

      for (const field of SCORE_FIELDS) expect(capped.row[field], field).toEqual(uncapped.row[field]);
      expect(
        (capped.row.critical_count as number) +
          (capped.row.high_count as number) +
          (capped.row.medium_count as number) +
          (capped.row.low_count as number) +
          (capped.row.info_count as number),
      ).toBe(Object.values(noisy.result.metrics.severityCounts).reduce((a, b) => a + b, 0));
      const notListed = cappedRules.reduce((n, [, count]) => n + count - cap, 0);
      expect((capped.row.metrics as { issues_not_listed: number }).issues_not_listed).toBe(notListed);
      expect((uncapped.row.metrics as { issues_not_listed: number }).issues_not_listed).toBe(0);
      expect(capped.done.issues).toBe(findings.length - notListed + cappedRules.length);

      const rows = await db.query<{ rule_id: string; n: number }>(
        "SELECT rule_id, count(*)::int AS n FROM issues WHERE context_id = $1 AND file_path <> '.' GROUP BY rule_id",
        [capped.assessmentId],
      );
      for (const row of rows) expect(row.n, row.rule_id).toBe(Math.min(cap, perRule.get(row.rule_id)!));
      const summaries = await db.query<{ rule_id: string; title: string; description: string }>(
        "SELECT rule_id, title, description FROM issues WHERE context_id = $1 AND file_path = '.' AND title LIKE '…and %'",
        [capped.assessmentId],
      );
      expect(summaries.map((s) => s.rule_id).sort()).toEqual(cappedRules.map(([rule]) => rule).sort());
      for (const [rule, count] of cappedRules) {
        const summary = summaries.find((s) => s.rule_id === rule)!;
        expect(summary.title).toBe(`…and ${(count - cap).toLocaleString('en-US')} more findings of rule ${rule} not listed`);
        expect(summary.description).toContain(`found ${count.toLocaleString('en-US')} findings of rule ${rule}`);
      }
    });
  });
}
