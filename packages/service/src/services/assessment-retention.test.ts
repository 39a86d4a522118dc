// Retention of old runs' issues, enforced after each recorded assessment: the latest N completed
// runs keep their full issue list; older ones lose their issue rows but keep their record, so the
// spec's endpoints still answer for them (the assessment with its scores and counts, the list of
// assessments, trends, drift alerts) and their issue list reads as empty, consistently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessTwoVersions, type AssessedRepo, type AssessedVersion } from '../../../../test/helpers/assessed-repo.js';
import { assessNoisyRepo } from '../../../../test/helpers/noisy-repo.js';
import type { Database } from '../store/database.js';
import { createTestDatabase } from '../store/test-database.js';
import { ProjectAccess } from './access.js';
import { AssessmentRecorder, type RepositoryAssessment } from './assessment-recorder.js';
import { pruneAssessmentIssues, type PrunedIssues } from './assessment-retention.js';
import { seedProject } from './fixtures/seeded-project.js';
import { HealthService } from './health.js';
import { IssueService } from './issues.js';
import { JobQueueWorkflowStarter } from './job-queue.js';

let noisy: AssessedVersion;
let versions: AssessedRepo;
let db: Database;
let dispose: () => Promise<void>;
let health: HealthService;
let issues: IssueService;

beforeAll(async () => {
  [noisy, versions] = await Promise.all([assessNoisyRepo(12, 4), assessTwoVersions()]);
  ({ db, dispose } = await createTestDatabase('pglite'));
  const access = new ProjectAccess(db);
  health = new HealthService(db, access, new JobQueueWorkflowStarter(db), new AssessmentRecorder(db));
  issues = new IssueService(db, access);
}, 120_000);
afterAll(() => dispose?.());

const input = (repositoryId: string, version: AssessedVersion): RepositoryAssessment => ({
  repositoryId,
  repository: { name: 'repo0', full_name: 'acme/repo0' },
  commitSha: version.sha,
  result: version.result,
});

const issueRows = async (contextId: string) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [contextId]))[0]!.n;

describe("retention of assessments' issues", () => {
  it('keeps the issue list of the latest N runs; older runs keep their record and read as having no issues', async () => {
    const { projectId, repoIds, owner } = await seedProject(db);
    const passes: Array<PrunedIssues | Error> = [];
    const recorder = new AssessmentRecorder(db, { issueRetentionRuns: 2, onRetention: (_, outcome) => passes.push(outcome) });
    // Alternating versions, so that runs raise drift alerts against each other.
    const runs = [noisy, versions.second, noisy, versions.first];
    const ids: string[] = [];
    const before = new Map<string, unknown>();
    for (const version of runs) {
      const run = await recorder.create(projectId, 'manual');
      await recorder.complete(run.id, [input(repoIds[0]!, version)]);
      ids.push(run.id);
      before.set(run.id, await health.getAssessment(owner, projectId, run.id));
    }
    const [oldest, older, previous, latest] = ids as [string, string, string, string];

    expect(await issueRows(oldest)).toBe(0);
    expect(await issueRows(older)).toBe(0);
    expect(await issueRows(previous)).toBe(noisy.result.findings.length);
    expect(await issueRows(latest)).toBe(versions.first.result.findings.length);
    expect(passes).toEqual([
      { assessments: 1, issues: noisy.result.findings.length },
      { assessments: 1, issues: versions.second.result.findings.length },
    ]);
    const pruned = await db.query<{ id: string }>(
      'SELECT id FROM health_assessments WHERE project_id = $1 AND issues_pruned_at IS NOT NULL ORDER BY created_at',
      [projectId],
    );
    expect(pruned.map((r) => r.id).sort()).toEqual([oldest, older].sort());

    // GET …/health/assessments/{id} of a pruned run: the same record as before pruning.
    for (const id of ids) expect(await health.getAssessment(owner, projectId, id)).toEqual(before.get(id));
    // Its counts stand though its issue rows are gone.
    const record = await health.getAssessment(owner, projectId, oldest);
    expect(record.critical_count + record.high_count + record.medium_count + record.low_count + record.info_count).toBe(noisy.result.findings.length);
    const list = await health.listAssessments(owner, projectId, { limit: 20, offset: 0 });
    expect(list.items.map((item) => item.id)).toEqual([...ids].reverse());
    const dashboard = await health.dashboard(owner, projectId);
    expect(dashboard.trend_data.map((point) => point.id).sort()).toEqual([...ids].sort());
    // Drift alerts raised by a pruned run are still listed.
    const alerts = await health.listDriftAlerts(owner, projectId, { limit: 100, offset: 0 });
    expect(alerts.some((alert) => alert.assessment_id === older)).toBe(true);

    // GET …/analysis/issues?context_id=<pruned run>: an empty list, and statistics of nothing.
    expect(await issues.list(owner, projectId, { context_id: oldest, limit: 50, offset: 0 })).toEqual({ issues: [], total: 0 });
    expect((await issues.stats(owner, projectId, { context_id: older })).total).toBe(0);
    // The kept runs and the default scope (the latest run) are untouched.
    expect((await issues.list(owner, projectId, { context_id: previous, limit: 1, offset: 0 })).total).toBe(noisy.result.findings.length);
    expect((await issues.list(owner, projectId, { limit: 1, offset: 0 })).total).toBe(versions.first.result.findings.length);
  });

  it("removes a pruned run's issue from reads by id, and cleans up after failed runs", async () => {
    const { projectId, repoIds, owner } = await seedProject(db);
    const recorder = new AssessmentRecorder(db, { issueRetentionRuns: 1 });
    const first = await recorder.create(projectId, 'manual');
    await recorder.complete(first.id, [input(repoIds[0]!, versions.first)]);
    const [issue] = (await issues.list(owner, projectId, { limit: 1, offset: 0 })).issues;
    expect(await issues.get(owner, projectId, issue!.id)).toMatchObject({ id: issue!.id, context_id: first.id });

    // A failed run whose attempt left rows (a crash between batches and a lost fail()).
    const failed = await recorder.create(projectId, 'manual');
    await db.query(
      `INSERT INTO issues (id, project_id, context_type, context_id, fingerprint, source, severity, severity_rank, category, file_path, file_group, line_start, line_end, title, rule_id, analyzer_name, confidence)
       SELECT gen_random_uuid(), project_id, context_type, $2, fingerprint, source, severity, severity_rank, category, file_path, file_group, line_start, line_end, title, rule_id, analyzer_name, confidence
         FROM issues WHERE context_id = $1`,
      [first.id, failed.id],
    );
    await db.query("UPDATE health_assessments SET status = 'failed' WHERE id = $1", [failed.id]);

    const second = await recorder.create(projectId, 'manual');
    await recorder.complete(second.id, [input(repoIds[0]!, versions.second)]);
    await expect(issues.get(owner, projectId, issue!.id)).rejects.toThrow('issue not found');
    expect(await issueRows(first.id)).toBe(0);
    expect(await issueRows(failed.id)).toBe(0);
    expect(await issueRows(second.id)).toBe(versions.second.result.findings.length);
  });

  it("keeps every run's issues with a retention of 0, and a pass with nothing to do removes nothing", async () => {
    const { projectId, repoIds } = await seedProject(db);
    const recorder = new AssessmentRecorder(db, { issueRetentionRuns: 0 });
    const ids: string[] = [];
    for (const version of [versions.first, versions.second, versions.first]) {
      const run = await recorder.create(projectId, 'manual');
      await recorder.complete(run.id, [input(repoIds[0]!, version)]);
      ids.push(run.id);
    }
    for (const id of ids) expect(await issueRows(id)).toBeGreaterThan(0);
    expect(await pruneAssessmentIssues(db, projectId, 3)).toEqual({ assessments: 0, issues: 0 });
    expect(await pruneAssessmentIssues(db, projectId, 2, { batchSize: 2 })).toEqual({ assessments: 1, issues: versions.first.result.findings.length });
    expect(await issueRows(ids[0]!)).toBe(0);
  });
});
