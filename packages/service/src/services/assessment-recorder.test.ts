// The write side of assessments on both stores, driven by real engine results of real git
// repositories: everything in one transaction, is_new against the previous run, drift alerts,
// idempotent retries, combination of several repositories.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessPythonRepo, assessSmallRepo, assessTwoVersions, type AssessedRepo, type AssessedVersion } from '../../../../test/helpers/assessed-repo.js';
import { HEALTH_CATEGORY_KEYS, toWireAssessment } from '@codehealth/engine';
import type { StoredScoring } from './assessment-combination.js';
import { createTestDatabase, testPostgresUrl, type TestStoreKind } from '../store/test-database.js';
import { FOREIGN_KEY_VIOLATION, sqlState, type Database } from '../store/database.js';
import { AssessmentRecorder, redactFailure, type RepositoryAssessment } from './assessment-recorder.js';
import { seedProject } from './fixtures/seeded-project.js';

let assessed: AssessedRepo;
let small: AssessedVersion;
let python: AssessedVersion;

beforeAll(async () => {
  assessed = await assessTwoVersions();
  small = await assessSmallRepo();
  python = await assessPythonRepo();
});

const tenths = (entries: ReadonlyArray<{ cost: number }>) => entries.reduce((sum, e) => sum + Math.round(e.cost * 10), 0);

const input = (repositoryId: string, version: AssessedVersion, index = 0): RepositoryAssessment => ({
  repositoryId,
  repository: { name: `repo${index}`, full_name: `acme/repo${index}` },
  commitSha: version.sha,
  result: version.result,
});

for (const store of ['pglite', 'postgres'] as const satisfies readonly TestStoreKind[]) {
  const run = store === 'postgres' && !testPostgresUrl() ? describe.skip : describe;
  run(`AssessmentRecorder [${store}]`, () => {
    let db: Database;
    let dispose: () => Promise<void>;
    let recorder: AssessmentRecorder;

    beforeAll(async () => {
      ({ db, dispose } = await createTestDatabase(store));
      recorder = new AssessmentRecorder(db);
    });
    afterAll(() => dispose?.());

    it('records two runs: scores as toWireAssessment, is_new against the previous run, drift alerts', async () => {
      const { projectId, repoIds } = await seedProject(db);
      const first = await recorder.create(projectId, 'manual');
      expect(first.status).toBe('pending');
      expect((await recorder.markRunning(first.id)).status).toBe('running');
      const done = await recorder.complete(first.id, [input(repoIds[0]!, assessed.first)]);
      expect(done).toMatchObject({ status: 'completed', issues: assessed.first.result.findings.length, newIssues: 0, driftAlerts: 0 });

      const wire = toWireAssessment(assessed.first.result);
      const [row] = await db.query<Record<string, unknown>>('SELECT * FROM health_assessments WHERE id = $1', [first.id]);
      for (const field of [
        'overall_score',
        'overall_grade',
        'security_score',
        'code_smell_score',
        'test_coverage_score',
        'critical_count',
        'medium_count',
        'low_count',
        'total_lines_of_code',
        'test_lines_of_code',
        'structural_coverage_pct',
      ]) {
        expect(row![field], field).toEqual(wire[field as keyof typeof wire]);
      }
      expect(row).toMatchObject({ status: 'completed', trigger_type: 'manual', commits: [{ repository_id: repoIds[0], sha: assessed.first.sha }] });
      expect(row!.completed_at).toBeInstanceOf(Date);
      expect(row!.metrics).toMatchObject({
        churn_rate: assessed.first.result.metrics.churn.churnRate,
        lines_added_30d: assessed.first.result.metrics.churn.linesAdded30d,
        refactoring_rate: 0,
      });
      expect(row!.repo_stats).toEqual([
        expect.objectContaining({
          id: repoIds[0],
          name: 'repo0',
          full_name: 'acme/repo0',
          language: 'typescript',
          total_loc: wire.total_lines_of_code,
          pr_count: 0,
        }),
      ]);
      expect((row!.conventions as Array<{ name: string }>).map((c) => c.name)).toEqual(assessed.first.result.conventions.map((c) => c.name));

      const second = await recorder.create(projectId, 'push');
      const result = await recorder.complete(second.id, [input(repoIds[0]!, assessed.second)]);
      const issues = await db.query<{ rule_id: string; file_path: string; is_new: boolean }>(
        "SELECT rule_id, file_path, is_new FROM issues WHERE context_type = 'health_assessment' AND context_id = $1",
        [second.id],
      );
      expect(issues).toHaveLength(assessed.second.result.findings.length);
      const fresh = issues.filter((i) => i.is_new).map((i) => `${i.rule_id} ${i.file_path}`);
      expect(fresh).toContain('security/no-eval src/extra.ts');
      expect(fresh).toContain('code-smell/cognitive-complexity src/extra.ts');
      expect(fresh).not.toContain('code-smell/cognitive-complexity src/math.ts');
      expect(issues.filter((i) => i.file_path === 'src/math.ts' && i.rule_id === 'code-smell/deep-nesting')).toEqual([
        expect.objectContaining({ is_new: false }),
      ]);
      expect(result.newIssues).toBe(fresh.length);

      const alerts = await db.query<{
        drift_type: string;
        category: string;
        previous_value: number;
        current_value: number;
        change: number;
        affected_files: string[];
      }>('SELECT drift_type, category, previous_value, current_value, change, affected_files FROM drift_alerts WHERE assessment_id = $1', [second.id]);
      expect(result.driftAlerts).toBe(alerts.length);
      const wire2 = toWireAssessment(assessed.second.result);
      const security = alerts.find((a) => a.category === 'security');
      expect(security).toMatchObject({ drift_type: 'score', previous_value: wire.security_score, current_value: wire2.security_score });
      expect(security!.change).toBeCloseTo(wire2.security_score - wire.security_score, 1);
      expect(security!.affected_files).toEqual(['src/extra.ts']);
      expect(alerts.find((a) => a.category === 'overall')).toMatchObject({
        drift_type: 'score',
        previous_value: wire.overall_score,
        current_value: wire2.overall_score,
      });
    });

    it('leaves no trace of a run whose writing fails half-way, and keeps it open for a retry', async () => {
      const { projectId, repoIds } = await seedProject(db);
      const base = await recorder.create(projectId, 'manual');
      await recorder.complete(base.id, [input(repoIds[0]!, assessed.first)]);
      const broken = await recorder.create(projectId, 'manual');
      await recorder.markRunning(broken.id);
      // The second repository does not exist: its issues violate the foreign key after the
      // assessment row, the first repository's issues and its stats were already written.
      expect(small.result.findings.length).toBeGreaterThan(0);
      const missing = randomUUID();
      const failure = await recorder.complete(broken.id, [input(repoIds[0]!, assessed.second), input(missing, small, 1)]).catch((error: unknown) => error);
      expect(sqlState(failure)).toBe(FOREIGN_KEY_VIOLATION);
      const [row] = await db.query<Record<string, unknown>>(
        'SELECT status, overall_score, total_lines_of_code, repo_stats, completed_at FROM health_assessments WHERE id = $1',
        [broken.id],
      );
      expect(row).toEqual({ status: 'running', overall_score: null, total_lines_of_code: 0, repo_stats: [], completed_at: null });
      expect(await db.query('SELECT id FROM issues WHERE context_id = $1', [broken.id])).toEqual([]);
      expect(await db.query('SELECT id FROM drift_alerts WHERE assessment_id = $1', [broken.id])).toEqual([]);
      // The retry with correct input completes it.
      expect((await recorder.complete(broken.id, [input(repoIds[0]!, assessed.second)])).status).toBe('completed');
    });

    it('is idempotent: a repeated complete writes nothing; fail never overrides a completed run', async () => {
      const { projectId, repoIds } = await seedProject(db);
      const run = await recorder.create(projectId, 'scheduled');
      await recorder.complete(run.id, [input(repoIds[0]!, assessed.first)]);
      const again = await recorder.complete(run.id, [input(repoIds[0]!, assessed.second)]);
      expect(again).toMatchObject({ status: 'already_finished', overallScore: toWireAssessment(assessed.first.result).overall_score });
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [run.id]);
      expect(count!.n).toBe(assessed.first.result.findings.length);
      expect((await recorder.fail(run.id, 'late failure')).status).toBe('completed');
      expect((await recorder.markRunning(run.id)).status).toBe('completed');
      await expect(recorder.complete(randomUUID(), [input(repoIds[0]!, assessed.first)])).rejects.toMatchObject({ name: 'NotFoundError' });
      await expect(recorder.complete(run.id, [])).rejects.toMatchObject({ name: 'InvalidInputError' });
    });

    it('fails a run with a redacted message; a failed run cannot be completed', async () => {
      const { projectId, repoIds } = await seedProject(db);
      const run = await recorder.create(projectId, 'manual');
      const failed = await recorder.fail(run.id, 'git clone https://x-access-token:ghs_secret123@github.com/acme/repo.git failed');
      expect(failed.status).toBe('failed');
      const [row] = await db.query<{ error: string; completed_at: Date | null }>('SELECT error, completed_at FROM health_assessments WHERE id = $1', [run.id]);
      expect(row!.error).toBe('git clone https://***@github.com/acme/repo.git failed');
      expect(row!.completed_at).toBeInstanceOf(Date);
      await expect(recorder.complete(run.id, [input(repoIds[0]!, assessed.first)])).rejects.toMatchObject({ name: 'ConflictError' });
      expect(redactFailure('x'.repeat(3000))).toHaveLength(2001);
    });

    it('creates a run with a given id once (onboarding) and refuses it for another project', async () => {
      const { projectId } = await seedProject(db);
      const id = randomUUID();
      const a = await recorder.create(projectId, 'manual', { id, workflowId: 'wf-1' });
      const b = await recorder.create(projectId, 'manual', { id, workflowId: 'wf-2' });
      expect(b).toEqual(a);
      const [row] = await db.query<{ workflow_id: string }>('SELECT workflow_id FROM health_assessments WHERE id = $1', [id]);
      expect(row!.workflow_id).toBe('wf-1');
      const other = await seedProject(db);
      await expect(recorder.create(other.projectId, 'manual', { id })).rejects.toMatchObject({ name: 'ConflictError' });
    });

    it('combines several repositories: LOC-weighted scores, summed counts, one repo_stats entry each', async () => {
      const { projectId, repoIds } = await seedProject(db, { repos: 2 });
      await db.query('INSERT INTO pull_requests (id, repository_id, pr_number) VALUES ($1, $2, 1), ($3, $2, 2)', [randomUUID(), repoIds[1], randomUUID()]);
      const run = await recorder.create(projectId, 'manual');
      await recorder.complete(run.id, [input(repoIds[0]!, assessed.second, 0), input(repoIds[1]!, small, 1)]);
      const big = toWireAssessment(assessed.second.result);
      const little = toWireAssessment(small.result);
      const [row] = await db.query<Record<string, any>>('SELECT * FROM health_assessments WHERE id = $1', [run.id]);
      const loc = big.total_lines_of_code + little.total_lines_of_code;
      const expected = (a: number, b: number) => Math.round(((a * big.total_lines_of_code + b * little.total_lines_of_code) / loc) * 10) / 10;
      expect(row!.total_lines_of_code).toBe(loc);
      expect(row!.security_score).toBe(expected(big.security_score, little.security_score));
      expect(row!.overall_score).toBe(expected(big.overall_score, little.overall_score));
      expect(row!.medium_count).toBe(big.medium_count + little.medium_count);
      expect(row!.repo_stats.map((s: { full_name: string; language: string; pr_count: number }) => [s.full_name, s.language, s.pr_count])).toEqual([
        ['acme/repo0', 'typescript', 0],
        ['acme/repo1', 'javascript', 2],
      ]);
      const repoOfIssues = await db.query<{ repository_id: string; n: number }>(
        'SELECT repository_id, count(*)::int AS n FROM issues WHERE context_id = $1 GROUP BY repository_id ORDER BY n DESC',
        [run.id],
      );
      expect(repoOfIssues.find((r) => r.repository_id === repoIds[1])?.n ?? 0).toBe(small.result.findings.length);
      // The combined ledger adds up to the combined scores.
      const scoring = row!.metrics.scoring as StoredScoring;
      expect(scoring.graded).toBe(true);
      expect(tenths(scoring.ledger.overall)).toBe(Math.round((100 - row!.overall_score) * 10));
      for (const key of HEALTH_CATEGORY_KEYS) {
        if (row![`${key}_score`] !== null) expect(tenths(scoring.ledger.categories[key].ledger), key).toBe(Math.round((100 - row![`${key}_score`]) * 10));
      }
    });

    it('stores a repository without supported code with no grade (NULL scores) and raises no drift against it', async () => {
      const { projectId, repoIds } = await seedProject(db);
      const first = await recorder.create(projectId, 'manual');
      await recorder.complete(first.id, [input(repoIds[0]!, assessed.first)]);
      const second = await recorder.create(projectId, 'push');
      const done = await recorder.complete(second.id, [input(repoIds[0]!, python)]);
      expect(done).toMatchObject({ status: 'completed', overallScore: null, driftAlerts: 0 });
      const [row] = await db.query<Record<string, any>>('SELECT * FROM health_assessments WHERE id = $1', [second.id]);
      expect(row).toMatchObject({ overall_score: null, overall_grade: null, security_score: null, compliance_score: null });
      const reason = 'no TypeScript or JavaScript files: 3 Python files are not analysed';
      expect(row!.metrics.scoring).toMatchObject({ graded: false, not_graded_reason: reason, not_assessed: { security: reason, test_coverage: reason } });
      // And back: a graded run after an ungraded one compares with nothing.
      const third = await recorder.create(projectId, 'push');
      const after = await recorder.complete(third.id, [input(repoIds[0]!, assessed.second)]);
      expect(after).toMatchObject({ driftAlerts: 0 });
    });

    it('combines a repository without supported code with one that has it: only the second is graded, nothing pulled to 0', async () => {
      const { projectId, repoIds } = await seedProject(db, { repos: 2 });
      const run = await recorder.create(projectId, 'manual');
      await recorder.complete(run.id, [input(repoIds[0]!, assessed.first, 0), input(repoIds[1]!, python, 1)]);
      const graded = toWireAssessment(assessed.first.result);
      const [row] = await db.query<Record<string, any>>('SELECT * FROM health_assessments WHERE id = $1', [run.id]);
      expect(row).toMatchObject({
        overall_score: graded.overall_score,
        overall_grade: graded.overall_grade,
        security_score: graded.security_score,
        code_smell_score: graded.code_smell_score,
      });
      expect(row!.metrics.scoring).toMatchObject({ graded: true, not_graded_reason: null, not_assessed: {} });
    });
  });
}
