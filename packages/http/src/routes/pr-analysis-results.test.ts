import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, issueFingerprint, renderPrMarkdown, type Finding } from '@codehealth/engine';
import { api as wire, ConflictError, insertContextIssues, InvalidInputError, LocalGitCodeHost, localCheckouts, PrAnalysisPipeline } from '@codehealth/service';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { createPrRepository, linkLocalRepository, pushPullRequestCommits, type PrRepository } from '../fixtures/pull-requests.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

/** What the PR pipeline would produce for PR #1 (a payments module that evaluates its input). */
function fullResult(readiness: wire.MergeReadiness['status'] = 'blocked'): wire.PrAnalysisResult {
  return {
    classification: {
      primary_intent: 'feature',
      secondary_intents: ['security'],
      change_categories: ['source'],
      risk_signals: ['dynamic code evaluation', 'changed code without tests'],
      summary: 'Adds a charge() function that evaluates an amount expression.',
    },
    merge_readiness: {
      status: readiness,
      blocking_count: readiness === 'blocked' ? 1 : 0,
      advisory_count: readiness === 'ready' ? 0 : 1,
      info_count: 2,
      confidence: 87.5,
    },
    health_impact: { overall_delta: -4.25, issues_added: 2, issues_fixed: 0, impact_rating: 'major_regression' },
    health_projection: {
      current_overall: 91.5,
      projected_overall: 87.25,
      overall_delta: -4.25,
      current_grade: 'A',
      projected_grade: 'B',
      category_deltas: [
        { category: 'security', current_score: 100, projected_score: 80, delta: -20, issues_in_pr: 1 },
        { category: 'dead_code', current_score: 90, projected_score: 88.5, delta: -1.5, issues_in_pr: 1 },
      ],
      issues_added: 2,
      issues_fixed: 0,
      impact_rating: 'major_regression',
    },
    graph_impact: {
      changed_symbols: [{ name: 'charge', file: 'src/payments.ts', kind: 'function' }],
      dependents_count: 0,
      dependent_files: [],
      depth: 3,
      summary: 'charge() is new and not imported anywhere yet.',
    },
    scope_drift: [{ description: 'README wording', reason: 'documentation outside the stated feature', files: ['README.md'] }],
    impact_zones: [
      {
        name: 'src/payments',
        risk: 'critical',
        scope_classification: 'primary',
        summary: 'New payment entry point evaluating caller input.',
        intent: 'feature',
        files: [{ path: 'src/payments.ts', additions: 6, deletions: 0 }],
      },
    ],
    conflicts: {
      conflicts: [
        {
          pr_number: 2,
          title: 'docs: describe the shop',
          semantic_conflict: 'both describe the public API',
          resolution_suggestion: 'merge #2 first',
          overlapping_files: ['README.md'],
        },
      ],
      checked_prs: [2],
      summary: '1 of 1 open pull request overlaps.',
    },
    stacked_prs: { is_stacked: true, stacked_prs: [1, 3], parent_prs: [], child_prs: [3], summary: '#3 is built on this PR.' },
  };
}

describeStores('PR analyses API: results, recorder and statistics', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let pr: PrRepository;
  let headFindings: Finding[];
  let mainFindings: Finding[];

  beforeAll(async () => {
    api = await createTestApi({ store, codeHosts: [new LocalGitCodeHost()], serviceOptions: { allowLocalRepos: true } });
    owner = await api.createUser();
    pr = createPrRepository();
    const engine = await createEngine({ cacheDir: false, workers: 0 });
    headFindings = (await engine.analyze(pr.repo.root, { allowCodeConfig: false })).findings;
    pr.repo.git('checkout', '-q', 'main');
    mainFindings = (await engine.analyze(pr.repo.root, { allowCodeConfig: false })).findings;
    pr.repo.git('checkout', '-q', 'payments');
  });
  afterAll(() => api?.close());

  async function setup(): Promise<{ projectId: string; repoId: string; base: string; repo: PrRepository }> {
    const projectId = await api.createProject(owner);
    const repo = createPrRepository();
    const repoId = await linkLocalRepository(api.db, projectId, repo.repo.root);
    return { projectId, repoId, base: `/api/v1/projects/${projectId}`, repo };
  }
  async function analyze(projectId: string, repoId: string, number: number, head_sha?: string): Promise<string> {
    const started = await api.request('POST', `/api/v1/projects/${projectId}/repos/${repoId}/prs/${number}/analyze`, {
      key: owner.key,
      body: head_sha ? { head_sha } : undefined,
    });
    expect(started.status).toBe(201);
    return started.body.id;
  }
  const get = (path: string) => api.request('GET', path, { key: owner.key });

  it('completes a run with a full result that GET returns exactly; issues are stored under analysis_run_id, new against the baseline, rules applied', async () => {
    const { projectId, repoId, base } = await setup();
    const baselineId = randomUUID();
    await api.db.query("INSERT INTO health_assessments (id, project_id, trigger_type, status, completed_at) VALUES ($1, $2, 'manual', 'completed', now())", [
      baselineId,
      projectId,
    ]);
    await api.db.transaction((tx) =>
      insertContextIssues(
        tx,
        { projectId, contextType: 'health_assessment', contextId: baselineId },
        mainFindings.map((finding) => ({ finding, repositoryId: repoId })),
      ),
    );
    const ruleId = randomUUID();
    await api.db.query("INSERT INTO dismiss_rules (id, project_id, rule_pattern, scope, file_path) VALUES ($1, $2, 'security/no-eval', 'file', 'src/*.ts')", [
      ruleId,
      projectId,
    ]);

    const id = await analyze(projectId, repoId, 1);
    const running = await api.services.prAnalysisRecorder.markRunning(id);
    expect(running).toMatchObject({ id, projectId, repositoryId: repoId, prNumber: 1, status: 'running' });
    const whileRunning = await get(`${base}/pr-analyses/${id}`);
    expect(whileRunning.body).toMatchObject({ status: 'running', completed_at: null, failure_reason: null, classification: { primary_intent: 'unknown' } });
    // No verdict yet, and the readiness says why (an extension).
    expect(whileRunning.body.merge_readiness).toEqual({
      status: 'needs_review',
      blocking_count: 0,
      advisory_count: 0,
      info_count: 0,
      confidence: 0,
      reasons: ['the analysis is running: no verdict yet'],
      confidence_reasons: ['the analysis is running: no verdict yet'],
    });
    expect(whileRunning.body.started_at).toMatch(/Z$/);

    const result = fullResult();
    const done = await api.services.prAnalysisRecorder.complete(id, { result, findings: headFindings, baseSha: pr.mainSha });
    const mainPrints = new Set(mainFindings.map(issueFingerprint));
    const expectedNew = headFindings.filter((finding) => !mainPrints.has(issueFingerprint(finding)));
    expect(expectedNew.map((finding) => finding.ruleId)).toContain('security/no-eval');
    expect(done).toEqual({ status: 'completed', issues: headFindings.length, newIssues: expectedNew.length, dismissedIssues: 1 });

    const got = await get(`${base}/pr-analyses/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id,
      project_id: projectId,
      repository_id: repoId,
      pr_number: 1,
      head_sha: whileRunning.body.head_sha,
      ...result,
      analysis_run_id: whileRunning.body.analysis_run_id,
      status: 'completed',
      failure_reason: null,
      feedback: null,
      created_at: whileRunning.body.created_at,
      started_at: whileRunning.body.started_at,
      completed_at: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(got.body.completed_at)).toBeGreaterThanOrEqual(Date.parse(got.body.started_at));
    const latest = await get(`${base}/repos/${repoId}/prs/1/analysis`);
    expect(latest.body).toEqual(got.body);
    const listed = await get(`${base}/pr-analyses`);
    expect(listed.body.analyses[0]).toEqual({
      id,
      project_id: projectId,
      repository_id: repoId,
      pr_number: 1,
      head_sha: got.body.head_sha,
      classification: result.classification,
      merge_readiness: result.merge_readiness,
      status: 'completed',
      failure_reason: null,
      created_at: got.body.created_at,
      completed_at: got.body.completed_at,
    });

    const issues = await api.db.query<{
      rule_id: string;
      file_path: string;
      is_new: boolean;
      is_dismissed: boolean;
      repository_id: string;
      context_type: string;
    }>('SELECT rule_id, file_path, is_new, is_dismissed, repository_id, context_type FROM issues WHERE context_id = $1 ORDER BY rule_id, file_path', [
      got.body.analysis_run_id,
    ]);
    expect(issues).toHaveLength(headFindings.length);
    const newKeys = new Set(expectedNew.map((finding) => `${finding.ruleId} ${finding.filePath}`));
    for (const issue of issues) {
      expect(issue).toMatchObject({ repository_id: repoId, context_type: 'pr_analysis', is_dismissed: issue.rule_id === 'security/no-eval' });
      expect(issue.is_new, issue.rule_id).toBe(newKeys.has(`${issue.rule_id} ${issue.file_path}`));
    }
    const [rule] = await api.db.query<{ match_count: number }>('SELECT match_count FROM dismiss_rules WHERE id = $1', [ruleId]);
    expect(rule!.match_count).toBe(1);
    const [stored] = await api.db.query<{ base_sha: string }>('SELECT base_sha FROM pr_analyses WHERE id = $1', [id]);
    expect(stored!.base_sha).toBe(pr.mainSha);

    // Retried activities change nothing: completing again, failing after completion.
    expect(await api.services.prAnalysisRecorder.complete(id, { result: fullResult('ready'), findings: headFindings })).toMatchObject({
      status: 'already_finished',
    });
    expect(await api.services.prAnalysisRecorder.fail(id, 'late failure')).toMatchObject({ status: 'completed' });
    expect((await get(`${base}/pr-analyses/${id}`)).body).toEqual(got.body);
    const [count] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM issues WHERE context_id = $1', [got.body.analysis_run_id]);
    expect(count!.count).toBe(headFindings.length);
  });

  it("explains a real pipeline verdict (issue 18 §5): readiness and confidence reasons, the change's issues apart from the pre-existing ones, in GET and in the Markdown summary", async () => {
    const projectId = await api.createProject(owner);
    const key = 'AKIA' + 'QX7PLM2ZK4RTV9WN';
    const repo = createGitRepo({
      'package.json': '{ "name": "vault", "private": true }\n',
      'src/keys.ts': `export const ACCESS_KEY_ID = '${key}';\n`,
      'src/index.ts': "export { ACCESS_KEY_ID } from './keys.js';\n",
    });
    const mainSha = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'keys');
    repo.write({
      'src/keys.ts': `export const ACCESS_KEY_ID = '${key}';\nexport const SECOND_KEY_ID = '${key.replace('QX7', 'QY8')}';\n`,
      'src/types.ts': 'export interface Shape {\n  kind: ((( string\n  <<< = = ;\n}}} ]] export type = ;\n',
    });
    const headSha = repo.commit('feat: a second key and shapes');
    repo.git('update-ref', 'refs/pull/1/head', headSha);
    repo.git('checkout', '-q', 'main');
    const repoId = await linkLocalRepository(api.db, projectId, repo.root);
    const id = await analyze(projectId, repoId, 1);
    const recorder = api.services.prAnalysisRecorder;
    await recorder.markRunning(id);

    const engine = await createEngine({ cacheDir: false, workers: 0 });
    const checkouts = localCheckouts(repo.root);
    const head = await checkouts.checkout(headSha);
    try {
      const pr = {
        number: 1,
        title: 'feat: a second key and shapes',
        body: '',
        baseBranch: 'main',
        headBranch: 'keys',
        baseSha: mainSha,
        headSha,
        author: 'Test',
      };
      const out = await new PrAnalysisPipeline({ engine }).run({ headDir: head.path, checkouts, pr });
      await recorder.complete(id, {
        result: out.result,
        findings: out.findings,
        baseSha: out.mergeBaseSha,
        baselineContextIds: [],
        newFingerprints: [...out.newFingerprints],
        issueChanges: out.issueChanges,
      });
    } finally {
      await head.dispose();
    }

    const got = (await get(`/api/v1/projects/${projectId}/pr-analyses/${id}`)).body;
    expect(got).toMatchObject({ status: 'completed', failure_reason: null, merge_readiness: { status: 'blocked' } });
    const { merge_readiness: readiness, health_impact: impact } = got;
    expect(readiness.reasons[0]).toMatch(/^blocking: new critical security issue .*src\/keys\.ts:2$/);
    expect(readiness.confidence).toBeLessThan(100);
    expect(readiness.confidence_reasons).toEqual([expect.stringMatching(/^src\/types\.ts( could not be parsed|: \d+ % parsed cleanly)$/)]);
    expect(impact).toMatchObject({ issues_new: 1, issues_worsened: 0, issues_added: 1 });
    expect(impact.issues_pre_existing).toBeGreaterThanOrEqual(1);
    // The counts are those of the run's issues as listed with their change.
    const listed = (await get(`/api/v1/projects/${projectId}/analysis/issues?context_id=${got.analysis_run_id}&limit=500`)).body.issues as Array<{
      change: string;
      file_path: string;
    }>;
    expect(listed.filter((issue) => issue.change === 'new')).toHaveLength(impact.issues_new);
    expect(listed.filter((issue) => issue.change === 'unchanged' || issue.change === 'improved')).toHaveLength(impact.issues_pre_existing);
    expect(
      listed.filter((issue) => issue.change === 'unchanged').every((issue) => issue.file_path === 'src/keys.ts' || issue.file_path === 'src/types.ts'),
    ).toBe(true);
    // The list item carries the same readiness and its reasons.
    const item = (await get(`/api/v1/projects/${projectId}/pr-analyses`)).body.analyses[0];
    expect(item).toMatchObject({ id, merge_readiness: readiness, failure_reason: null });

    // The Markdown summary of the same body.
    const md = renderPrMarkdown(got);
    expect(md.split('\n')[0]).toBe('## CodeHealth: pull request #1 — blocked');
    expect(md).toContain(`- ${readiness.confidence_reasons[0]}`);
    expect(md).toContain(`**Issues:** 1 introduced by this change (1 new, 0 worsened) · ${impact.issues_pre_existing} pre-existing in the changed files`);
    expect(md).toMatch(/- blocking: new critical security issue .*src\/keys\.ts:2/);
  });

  it("lists each PR issue's change against the base (an extension): new, worsened with its former value, unchanged; is_new filters", async () => {
    const { projectId, repoId, base } = await setup();
    const id = await analyze(projectId, repoId, 1);
    await api.services.prAnalysisRecorder.markRunning(id);
    const [worse, fresh, ...same] = headFindings;
    const fp = (finding: Finding) => issueFingerprint(finding);
    const issueChanges = {
      ...Object.fromEntries(same.map((finding) => [fp(finding), { change: 'unchanged' as const }])),
      [fp(worse!)]: { change: 'worsened' as const, previousValue: 43 },
      [fp(fresh!)]: { change: 'new' as const },
    };
    await api.services.prAnalysisRecorder.complete(id, {
      result: fullResult(),
      findings: headFindings,
      baseSha: pr.mainSha,
      newFingerprints: [fp(fresh!)],
      issueChanges,
    });
    const runId = (await get(`${base}/pr-analyses/${id}`)).body.analysis_run_id;
    const listed = await get(`${base}/analysis/issues?context_id=${runId}&limit=500`);
    expect(listed.status).toBe(200);
    type Listed = { rule_id: string; title: string; anchor: { line_start: number } };
    const issueOf = (f: Finding) =>
      listed.body.issues.find((issue: Listed) => issue.rule_id === f.ruleId && issue.title === f.title && issue.anchor.line_start === f.anchor.lineStart);
    expect(issueOf(worse!)).toMatchObject({ is_new: false, change: 'worsened', previous_value: 43 });
    expect(issueOf(fresh!)).toMatchObject({ is_new: true, change: 'new' });
    expect(issueOf(fresh!)).not.toHaveProperty('previous_value');
    const changes = listed.body.issues.map((issue: { change: string }) => issue.change).sort();
    expect(changes.filter((change: string) => change === 'unchanged')).toHaveLength(same.length);
    const onlyNew = await get(`${base}/analysis/issues?context_id=${runId}&is_new=true`);
    expect(onlyNew.body.issues.map((issue: { rule_id: string }) => issue.rule_id)).toEqual([fresh!.ruleId]);
  });

  it('refuses an invalid result without writing anything, and a completion after failure; failure messages are credential-masked', async () => {
    const { projectId, repoId, base } = await setup();
    const id = await analyze(projectId, repoId, 1);
    await api.services.prAnalysisRecorder.markRunning(id);
    const broken = fullResult() as unknown as Record<string, any>;
    broken.merge_readiness = { ...broken.merge_readiness, status: 'maybe' };
    broken.impact_zones = [{ ...broken.impact_zones[0], risk: 'extreme' }];
    const refused = api.services.prAnalysisRecorder.complete(id, { result: broken as wire.PrAnalysisResult, findings: headFindings });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toThrow(/merge_readiness\.status.*impact_zones\.0\.risk/);
    const after = await get(`${base}/pr-analyses/${id}`);
    expect(after.body).toMatchObject({ status: 'running', merge_readiness: { status: 'needs_review' } });
    const [issues] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM issues WHERE context_id = $1', [after.body.analysis_run_id]);
    expect(issues!.count).toBe(0);

    // A failure while storing the issues (a finding the schema refuses) rolls the whole completion back.
    const badFinding = { ...headFindings[0]!, category: 'not-a-category' } as unknown as Finding;
    await expect(api.services.prAnalysisRecorder.complete(id, { result: fullResult(), findings: [headFindings[1]!, badFinding] })).rejects.toThrow();
    expect((await get(`${base}/pr-analyses/${id}`)).body).toEqual(after.body);
    const [rolledBack] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM issues WHERE context_id = $1', [after.body.analysis_run_id]);
    expect(rolledBack!.count).toBe(0);

    const failed = await api.services.prAnalysisRecorder.fail(id, 'git fetch https://x-access-token:ghs_SECRET123@github.com/acme/shop failed');
    expect(failed.status).toBe('failed');
    const [row] = await api.db.query<{ error: string }>('SELECT error FROM pr_analyses WHERE id = $1', [id]);
    expect(row!.error).toBe('git fetch https://***@github.com/acme/shop failed');
    const shown = await get(`${base}/pr-analyses/${id}`);
    expect(shown.body).toMatchObject({ status: 'failed', classification: { primary_intent: 'unknown' } });
    // The failure carries its (masked) reason, on the analysis, as the PR's latest analysis, in the list and in its readiness.
    expect(shown.body.failure_reason).toBe('git fetch https://***@github.com/acme/shop failed');
    expect(shown.body.merge_readiness.reasons).toEqual(['the analysis failed: git fetch https://***@github.com/acme/shop failed']);
    expect((await get(`${base}/repos/${repoId}/prs/1/analysis`)).body).toEqual(shown.body);
    expect((await get(`${base}/pr-analyses`)).body.analyses[0]).toMatchObject({ id, status: 'failed', failure_reason: shown.body.failure_reason });
    expect(shown.body.completed_at).toMatch(/Z$/);
    expect(JSON.stringify(shown.body)).not.toContain('SECRET');
    await expect(api.services.prAnalysisRecorder.complete(id, { result: fullResult(), findings: [] })).rejects.toBeInstanceOf(ConflictError);
    expect((await api.services.prAnalysisRecorder.markRunning(id)).status).toBe('failed');
  });

  it('counts analyses by status and readiness, averages completed durations, and honours since (strictly after)', async () => {
    const { projectId, repoId, base, repo } = await setup();
    // Six heads of PR #1, one per run.
    const heads = pushPullRequestCommits(repo.repo, 1, 5);
    const recorder = api.services.prAnalysisRecorder;
    const empty = await get(`${base}/pr-analyses/stats`);
    expect(empty.body).toEqual({
      total_count: 0,
      completed_count: 0,
      failed_count: 0,
      running_count: 0,
      blocked_count: 0,
      needs_review_count: 0,
      ready_count: 0,
      avg_duration_seconds: 0,
    });

    const runs: Record<string, string> = {};
    const plan: Array<[string, string, 'blocked' | 'ready' | 'needs_review' | 'failed' | 'running' | 'pending', number]> = [
      ['a', '2024-01-01T00:00:00Z', 'blocked', 10],
      ['b', '2024-01-02T00:00:00Z', 'ready', 20],
      ['c', '2024-02-01T00:00:00Z', 'needs_review', 31.5],
      ['d', '2024-02-02T00:00:00Z', 'failed', 0],
      ['e', '2024-02-03T00:00:00Z', 'running', 0],
      ['f', '2024-02-04T00:00:00Z', 'pending', 0],
    ];
    for (const [index, [name, createdAt, outcome, seconds]] of plan.entries()) {
      const id = await analyze(projectId, repoId, 1, heads[index]);
      runs[name] = id;
      if (outcome !== 'pending') await recorder.markRunning(id);
      if (outcome === 'failed') await recorder.fail(id, 'boom');
      if (outcome === 'blocked' || outcome === 'ready' || outcome === 'needs_review')
        await recorder.complete(id, { result: fullResult(outcome), findings: [] });
      await api.db.query(
        `UPDATE pr_analyses SET created_at = $2::timestamptz,
                started_at = CASE WHEN started_at IS NULL THEN NULL ELSE $2::timestamptz + interval '1 minute' END,
                completed_at = CASE WHEN status = 'completed' THEN $2::timestamptz + interval '1 minute' + make_interval(secs => $3) ELSE completed_at END
          WHERE id = $1`,
        [id, createdAt, seconds],
      );
    }
    const stats = (since?: string) => get(`${base}/pr-analyses/stats${since === undefined ? '' : `?since=${encodeURIComponent(since)}`}`);
    expect((await stats()).body).toEqual({
      total_count: 6,
      completed_count: 3,
      failed_count: 1,
      running_count: 1,
      blocked_count: 1,
      needs_review_count: 1,
      ready_count: 1,
      avg_duration_seconds: 20.5,
    });
    expect((await stats('2024-01-15T00:00:00Z')).body).toEqual({
      total_count: 4,
      completed_count: 1,
      failed_count: 1,
      running_count: 1,
      blocked_count: 0,
      needs_review_count: 1,
      ready_count: 0,
      avg_duration_seconds: 31.5,
    });
    // Strictly after: equal creation times are left out, a microsecond earlier counts.
    expect((await stats('2024-02-04T00:00:00Z')).body.total_count).toBe(0);
    expect((await stats('2024-02-03T23:59:59.999999Z')).body.total_count).toBe(1);
    // A date is its midnight UTC; no offset means UTC; offsets are honoured.
    for (const since of ['2024-01-01', '2024-01-01T00:00:00', '2024-01-01T02:00:00+02:00', '2023-12-31T19:00:00-05:00']) {
      expect((await stats(since)).body.total_count, since).toBe(5);
    }
    expect((await stats('2099-01-01T00:00:00Z')).body).toEqual(empty.body);
    for (const since of ['yesterday', '2024-13-01T00:00:00Z', '2024-02-30', '1706745600', '']) {
      const bad = await stats(since);
      expect(bad.status, since).toBe(400);
      expect(bad.body.error).toMatch(/^invalid query parameter: since: since must be an ISO 8601 timestamp/);
    }
    // ISO 8601 allows what Postgres cannot store: refused as input too, never a 500.
    for (const since of ['0000-01-01T00:00:00Z', '2024-01-01T00:00:00+23:59']) {
      expect(await stats(since), since).toMatchObject({ status: 400, body: { error: `since is outside the supported range: ${since}` } });
    }
    // Other projects' analyses never count.
    const other = await api.createProject(owner);
    expect((await get(`/api/v1/projects/${other}/pr-analyses/stats`)).body.total_count).toBe(0);
    expect(Object.keys(runs)).toHaveLength(6);
  });
});
