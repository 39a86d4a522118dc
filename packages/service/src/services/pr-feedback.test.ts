// Pull-request feedback against a loopback server speaking GitHub's REST protocol (recorded
// check-run and comment payloads, real App authentication), on both stores: the exact requests
// for creating and then updating the check run, annotation batches of 50, the sticky comment
// found by its marker after a restart and left alone when unchanged, a re-run on the same head,
// no request at all for a closed PR, a repository outside the App or feedback turned off, and
// GitHub's failures as retryable errors carrying the delay it asked for.
import { randomUUID } from 'node:crypto';
import { createAppAuth } from '@octokit/auth-app';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recorded, startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { seedLinkedPullRequest } from '../../../../test/helpers/linked-pull-request.js';
import { GitHubCodeHost } from '../code-hosts/github-code-host.js';
import { staticCodeHosts } from '../ports/code-host.js';
import type { Database } from '../store/database.js';
import { createTestDatabase, testPostgresUrl, type TestStoreKind } from '../store/test-database.js';
import { JobQueueWorkflowStarter } from './job-queue.js';
import { pendingResult } from './pr-analysis-records.js';
import { ANNOTATIONS_PER_REQUEST, changedLinesOf, COMMENT_MARKER, type PrFeedbackService } from './pr-feedback.js';
import { Services } from './services.js';

const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
const NEXT_HEAD = '5fcfb4a1c5d3e0e6f2b0c3f9a1d2e3f4a5b6c7d8';
const INSTALLATION = recorded.activeInstallation.id as number;
const checkRunsPath = (sha: string) => `/repos/Codertocat/Hello-World/commits/${sha}/check-runs?check_name=CodeHealth&filter=all&per_page=100`;
const COMMENTS_PATH = '/repos/Codertocat/Hello-World/issues/2/comments?per_page=100';

for (const store of ['pglite', 'postgres'] as const satisfies readonly TestStoreKind[]) {
  const run = store === 'postgres' && !testPostgresUrl() ? describe.skip : describe;
  run(`PrFeedbackService against GitHub's protocol [${store}]`, () => {
    let db: Database;
    let dispose: () => Promise<void>;
    let github: FakeGitHub;
    let projectId: string;
    let repositoryId: string;

    /** A fresh process: new services and code host, no token or id kept from before. */
    const feedback = (apiUrl = 'https://codehealth.example.com'): PrFeedbackService =>
      new Services({
        db,
        workflows: new JobQueueWorkflowStarter(db),
        codeHosts: staticCodeHosts([
          new GitHubCodeHost({ baseUrl: github.baseUrl, app: { authStrategy: createAppAuth, auth: { appId: github.appId, privateKey: github.privateKey } } }),
        ]),
        options: { allowLocalRepos: false, invitationTtlDays: 7, apiUrl },
      }).prFeedback;

    /** The requests to check runs and comments, without the installation-token exchange. */
    const sent = () => github.exchanges.filter((exchange) => !exchange.path.startsWith('/app/'));

    beforeAll(async () => {
      ({ db, dispose } = await createTestDatabase(store));
      github = await startFakeGitHub();
    });
    afterAll(async () => {
      await github?.close();
      await dispose?.();
    });
    beforeEach(async () => {
      ({ projectId, repositoryId } = await seedLinkedPullRequest(db, github, HEAD));
    });

    /** A completed analysis of PR #2 at `head` with `added` new issues on changed lines (README.md 1–500), one new issue outside them and one pre-existing. */
    async function analysis(head: string, added: number, readiness: 'ready' | 'needs_review' | 'blocked' = 'blocked'): Promise<string> {
      const id = randomUUID();
      const runId = randomUUID();
      const result = pendingResult();
      const mergeReadiness = { status: readiness, blocking_count: added, advisory_count: 0, info_count: 0, confidence: 90, reasons: [`${added} new issues`] };
      const impact = { overall_delta: -2, issues_added: added + 1, issues_fixed: 3, impact_rating: 'minor_regression' };
      const projection = {
        ...result.health_projection,
        current_overall: 81,
        projected_overall: 79,
        current_grade: 'B',
        projected_grade: 'C',
        issues_added: added + 1,
        issues_fixed: 3,
      };
      await db.query(
        `INSERT INTO pr_analyses (id, project_id, repository_id, pr_number, head_sha, status, classification, merge_readiness, health_impact, health_projection,
                                  analysis_run_id, changed_lines, started_at, completed_at)
         VALUES ($1, $2, $3, 2, $4, 'completed', $5, $6, $7, $8, $9, $10, now(), now())`,
        [
          id,
          projectId,
          repositoryId,
          head,
          result.classification,
          mergeReadiness,
          impact,
          projection,
          runId,
          changedLinesOf([
            { path: 'README.md', status: 'modified', hunks: [{ newStart: 1, newLines: 500 }] },
            { path: 'gone.ts', status: 'deleted', hunks: [] },
          ]),
        ],
      );
      const issue = async (line: number, change: string, severity = 'high') =>
        db.query(
          `INSERT INTO issues (id, project_id, repository_id, context_type, context_id, fingerprint, source, severity, severity_rank, category, file_path, file_group,
                               line_start, line_end, title, description, rule_id, analyzer_name, confidence, is_new, change)
           VALUES ($1, $2, $3, 'pr_analysis', $4, $5, 'static_analyzer', $6, 1, 'code_smell', 'README.md', 'production', $7, $7, $8, 'why', 'deep-nesting', 'code-smell', 90, $9, $10)`,
          [randomUUID(), projectId, repositoryId, runId, `fp-${line}`, severity, line, `Finding at line ${line}`, change !== 'unchanged', change],
        );
      for (let line = 1; line <= added; line++) await issue(line, line % 2 ? 'new' : 'worsened', line === 1 ? 'critical' : 'medium');
      await issue(900, 'new'); // outside the changed lines: in the summary, never annotated
      await issue(2, 'unchanged'); // pre-existing: neither
      return id;
    }

    it('creates the check run in progress, then completes it with 120 annotations as 50 + 50 + 20 and creates one comment', async () => {
      const id = await analysis(HEAD, 120);
      const service = feedback();
      expect(await service.begin(id)).toMatchObject({ status: 'posted' });
      expect(sent()).toEqual([
        { method: 'GET', path: checkRunsPath(HEAD), body: undefined },
        {
          method: 'POST',
          path: '/repos/Codertocat/Hello-World/check-runs',
          body: {
            name: 'CodeHealth',
            head_sha: HEAD,
            status: 'in_progress',
            external_id: id,
            output: { title: 'Analysing the pull request', summary: `CodeHealth is analysing \`${HEAD.slice(0, 12)}\`.` },
          },
        },
      ]);
      const [checkRunId] = [...github.checkRuns.keys()];
      github.exchanges.length = 0;

      expect(await service.publish(id)).toEqual({ status: 'posted', checkRunId, comment: 'created' });
      const requests = sent();
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET ${checkRunsPath(HEAD)}`,
        `PATCH /repos/Codertocat/Hello-World/check-runs/${checkRunId}`,
        `PATCH /repos/Codertocat/Hello-World/check-runs/${checkRunId}`,
        `PATCH /repos/Codertocat/Hello-World/check-runs/${checkRunId}`,
        `GET ${COMMENTS_PATH}`,
        'POST /repos/Codertocat/Hello-World/issues/2/comments',
      ]);
      expect(requests.slice(1, 4).map((r) => r.body!.output.annotations.length)).toEqual([50, 50, 20]);
      const completion = requests[1]!.body!;
      expect(completion).toMatchObject({ status: 'completed', conclusion: 'failure', external_id: id, output: { title: 'Blocked: 121 introduced, 3 fixed' } });
      expect(completion.output.annotations[0]).toEqual({
        path: 'README.md',
        start_line: 1,
        end_line: 1,
        annotation_level: 'failure',
        title: 'Finding at line 1 (deep-nesting)',
        message: 'why',
      });
      expect(completion.output.summary).toContain('**Health projection:** B 81 → C 79');
      expect(completion.output.summary).toContain('121 new · 3 fixed · 120 on changed lines annotated');
      expect(completion.output.summary).toMatch(
        /- critical: \[Finding at line 1\]\(https:\/\/codehealth\.example\.com\/api\/v1\/projects\/[0-9a-f-]+\/analysis\/issues\/[0-9a-f-]+\)/,
      );
      expect(completion.output.summary).toContain('…and 111 more');
      // Further batches carry title and summary, as GitHub requires, and no second completion.
      expect(requests[2]!.body).toEqual({
        status: 'completed',
        output: { title: completion.output.title, summary: completion.output.summary, annotations: expect.any(Array) },
      });
      const run = github.checkRuns.get(checkRunId!)!;
      expect([run.status, run.conclusion, run.annotations.length, github.checkRuns.size]).toEqual(['completed', 'failure', 120, 1]);
      expect(run.annotations.some((a) => a.start_line === 900)).toBe(false);
      const [comment] = github.comments.get('codertocat/hello-world#2')!;
      expect(comment!.body.startsWith(`${COMMENT_MARKER}\n## CodeHealth: pull request #2 — blocked`)).toBe(true);
      const [row] = await db.query<{ feedback: { status: string } }>('SELECT feedback FROM pr_analyses WHERE id = $1', [id]);
      expect(row!.feedback.status).toBe('posted');
    });

    it('after a restart finds the check run and the comment again: an unchanged comment is not touched, a new head updates it in place', async () => {
      const first = await analysis(HEAD, 3);
      await feedback().publish(first);
      const commentId = github.comments.get('codertocat/hello-world#2')![0]!.id;
      // Someone else's comments around ours, and a quote of our marker in the middle of a reply.
      github.comments.set('codertocat/hello-world#2', [
        { ...recorded.issueComment, id: 1, body: 'LGTM' },
        { ...recorded.issueComment, id: 2, body: `> ${COMMENT_MARKER}` },
        ...github.comments.get('codertocat/hello-world#2')!,
      ]);
      github.exchanges.length = 0;

      // Redelivery or re-run of the same analysis in a fresh process: update, never create.
      expect(await feedback().publish(first)).toMatchObject({ status: 'posted', comment: 'unchanged' });
      expect(sent().map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
        `GET /repos/Codertocat/Hello-World/commits/${HEAD}/check-runs`,
        `PATCH /repos/Codertocat/Hello-World/check-runs/${[...github.checkRuns.keys()][0]}`,
        'GET /repos/Codertocat/Hello-World/issues/2/comments',
      ]);

      // A re-triggered analysis of the same head: still the one check run.
      const rerun = await analysis(HEAD, 4);
      await feedback().begin(rerun);
      await feedback().publish(rerun);
      expect(github.checkRuns.size).toBe(1);

      // A push: a new check run on the new head, the same comment updated in place.
      github.exchanges.length = 0;
      const pushed = await analysis(NEXT_HEAD, 1, 'ready');
      expect(await feedback().publish(pushed)).toMatchObject({ status: 'posted', comment: 'updated' });
      expect(
        sent()
          .filter((r) => r.method !== 'GET')
          .map((r) => `${r.method} ${r.path}`),
      ).toEqual(['POST /repos/Codertocat/Hello-World/check-runs', `PATCH /repos/Codertocat/Hello-World/issues/comments/${commentId}`]);
      const comments = github.comments.get('codertocat/hello-world#2')!;
      expect(comments.filter((c) => c.body.startsWith(COMMENT_MARKER)).map((c) => c.id)).toEqual([commentId]);
      expect(comments.find((c) => c.id === commentId)!.body).toContain('ready to merge');
      expect([...github.checkRuns.values()].map((r) => [r.head_sha, r.conclusion])).toEqual([
        [HEAD, 'failure'],
        [NEXT_HEAD, 'success'],
      ]);
    });

    it('a failed analysis completes the check run as neutral with the reason, and leaves the comment alone', async () => {
      const id = await analysis(HEAD, 0);
      await db.query("UPDATE pr_analyses SET status = 'failed', error = 'git fetch failed' WHERE id = $1", [id]);
      expect(await feedback().publish(id)).toMatchObject({ status: 'posted', comment: 'none' });
      expect(sent().map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${checkRunsPath(HEAD)}`, 'POST /repos/Codertocat/Hello-World/check-runs']);
      expect(sent()[1]!.body).toMatchObject({
        status: 'completed',
        conclusion: 'neutral',
        output: { title: 'The analysis failed', summary: expect.stringContaining('failed: git fetch failed') },
      });
    });

    it('finds the sticky comment on a later page of a long conversation', async () => {
      const id = await analysis(HEAD, 1);
      const others = Array.from({ length: 130 }, (_, i) => ({ ...recorded.issueComment, id: 10 + i, body: `comment ${i}` }));
      github.comments.set('codertocat/hello-world#2', [...others, { ...recorded.issueComment, id: 999, body: `${COMMENT_MARKER}\nold` }]);
      expect(await feedback().publish(id)).toMatchObject({ comment: 'updated' });
      expect(
        sent()
          .filter((r) => r.path.includes('/comments'))
          .map((r) => `${r.method} ${r.path}`),
      ).toEqual([`GET ${COMMENTS_PATH}`, `GET ${COMMENTS_PATH}&page=2`, 'PATCH /repos/Codertocat/Hello-World/issues/comments/999']);
    });

    it('sends nothing for a closed PR, a repository outside the App or a project that turned feedback off, and records why', async () => {
      const id = await analysis(HEAD, 2);
      await db.query("UPDATE pull_requests SET state = 'closed' WHERE repository_id = $1", [repositoryId]);
      expect(await feedback().begin(id)).toEqual({ status: 'skipped', reason: 'pull request #2 is closed' });
      expect(await feedback().publish(id)).toEqual({ status: 'skipped', reason: 'pull request #2 is closed' });

      await db.query("UPDATE pull_requests SET state = 'open' WHERE repository_id = $1", [repositoryId]);
      await db.query('UPDATE projects SET settings = $2 WHERE id = $1', [projectId, { pr_feedback: { enabled: false } }]);
      expect(await feedback().publish(id)).toMatchObject({ status: 'skipped', reason: expect.stringContaining('settings.pr_feedback.enabled') });

      await db.query("UPDATE projects SET settings = '{}' WHERE id = $1", [projectId]);
      await db.query('UPDATE repositories SET installation_id = 0 WHERE id = $1', [repositoryId]);
      expect(await feedback().publish(id)).toMatchObject({ status: 'skipped', reason: 'the repository is not linked through the code-host App' });
      expect(github.exchanges).toEqual([]);
      const [row] = await db.query<{ feedback: { status: string; reason: string } }>('SELECT feedback FROM pr_analyses WHERE id = $1', [id]);
      expect(row!.feedback).toMatchObject({ status: 'skipped', reason: 'the repository is not linked through the code-host App' });
    });

    it("fails with a retryable error carrying GitHub's requested delay on 429, 403 rate limits and 5xx; a refused annotation is not retryable", async () => {
      const id = await analysis(HEAD, 1);
      const service = feedback();
      github.failures.push({ status: 429, headers: { 'retry-after': '7' }, body: { message: 'You have exceeded a secondary rate limit.' } });
      await expect(service.publish(id)).rejects.toMatchObject({
        name: 'UnavailableError',
        status: 429,
        retryAfterMs: 7000,
        message: expect.stringContaining('rate limited'),
      });
      const reset = Math.floor(Date.now() / 1000) + 60;
      github.failures.push({
        status: 403,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
        body: { message: 'API rate limit exceeded' },
      });
      const limited = await service.publish(id).catch((error: { retryAfterMs: number; name: string }) => error);
      expect(limited).toMatchObject({ name: 'UnavailableError', status: 403 });
      expect((limited as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
      expect((limited as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(60_000);
      github.failures.push({ status: 502, body: { message: 'Server Error' } });
      await expect(service.publish(id)).rejects.toMatchObject({ name: 'UnavailableError', status: 502, retryAfterMs: undefined });
      github.failures.push({ status: 422, body: { message: 'Invalid request.' } });
      await expect(service.publish(id)).rejects.toMatchObject({ name: 'InvalidInputError' });
      // Nothing was half-posted: every attempt stopped at its first request.
      expect(github.checkRuns.size).toBe(0);
      expect(ANNOTATIONS_PER_REQUEST).toBe(50);
    });

    it('an uninstalled App (the installation token refused) is a retryable failure', async () => {
      const id = await analysis(HEAD, 1);
      const installations = github.installations;
      github.installations = installations.filter((installation) => installation.id !== INSTALLATION);
      try {
        await expect(feedback().publish(id)).rejects.toMatchObject({ name: 'UnavailableError', status: 404, message: expect.stringContaining('revoked') });
      } finally {
        github.installations = installations;
      }
    });
  });
}
