// Pull-request feedback on GitHub: check runs on the head commit and the PR's conversation
// comments, through an installation's Octokit client (its baseUrl is the configured API root,
// VCS_API_URL for GitHub Enterprise Server). A failure GitHub may recover from (rate limits,
// 5xx, a revoked or suspended installation) is a GitHubFeedbackError named `UnavailableError`, so
// the workflow's retry policy retries it, carrying the delay GitHub asked for; a request GitHub
// refuses for its content (422) is an InvalidInputError, which retrying cannot fix.
import type { Octokit } from '@octokit/rest';
import type { CheckRun, CheckRunState, IssueComment, PullRequestFeedbackChannel } from '../ports/pr-feedback.js';
import { InvalidInputError } from '../services/errors.js';

interface GitHubRequestError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

/** A GitHub failure worth retrying; `retryAfterMs` is what GitHub asked to wait, when it said. */
export class GitHubFeedbackError extends Error {
  override readonly name = 'UnavailableError';
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

/** How long GitHub asks to wait: `Retry-After` (seconds), else the rate limit's reset time. */
export function retryAfterMsOf(headers: Record<string, string | number | undefined>, now = Date.now()): number | undefined {
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  }
  return undefined;
}

function feedbackError(error: unknown, what: string): Error {
  const failure = error as GitHubRequestError;
  const status = typeof failure?.status === 'number' ? failure.status : undefined;
  const detail = (failure?.message ?? '').split(' - ')[0]!.slice(0, 200) || 'no response';
  const headers = failure?.response?.headers ?? {};
  if (status === 422) return new InvalidInputError(`GitHub refused to ${what} (422): ${detail}`);
  const why =
    status === 429 || (status === 403 && (headers['retry-after'] !== undefined || String(headers['x-ratelimit-remaining']) === '0'))
      ? 'rate limited'
      : status === 401 || status === 404
        ? 'the installation cannot reach the repository (revoked, suspended or uninstalled?)'
        : status === 403
          ? 'forbidden (does the App have checks: write and pull requests: write?)'
          : 'unavailable';
  return new GitHubFeedbackError(`GitHub could not ${what}: ${why} (${status ?? 'no status'}: ${detail})`, status, retryAfterMsOf(headers));
}

export class GitHubPrFeedbackChannel implements PullRequestFeedbackChannel {
  /**
   * @param client the installation's client, or how to get it (the code host builds it on first use,
   * once @octokit/rest is loaded)
   */
  constructor(
    private readonly client: Octokit | (() => Promise<Octokit>),
    private readonly repo: { owner: string; name: string },
    private readonly requestOptions: () => { signal: AbortSignal },
  ) {}

  private async call<T>(what: string, run: (client: Octokit) => Promise<T>): Promise<T> {
    // Outside the mapping: a client that cannot be built is no answer from GitHub.
    const client = typeof this.client === 'function' ? await this.client() : this.client;
    try {
      return await run(client);
    } catch (error) {
      throw feedbackError(error, what);
    }
  }

  async findCheckRuns(headSha: string, name: string): Promise<CheckRun[]> {
    return this.call('list the check runs', async (client) => {
      const runs = await client.paginate(client.rest.checks.listForRef, {
        owner: this.repo.owner,
        repo: this.repo.name,
        ref: headSha,
        check_name: name,
        filter: 'all',
        per_page: 100,
        request: this.requestOptions(),
      });
      return runs
        .filter((run) => run.name === name && run.head_sha === headSha)
        .map((run) => ({ id: run.id, name: run.name, headSha: run.head_sha, status: run.status }));
    });
  }

  async createCheckRun(headSha: string, name: string, state: CheckRunState): Promise<CheckRun> {
    return this.call('create the check run', async (client) => {
      const { data } = await client.rest.checks.create({
        owner: this.repo.owner,
        repo: this.repo.name,
        name,
        head_sha: headSha,
        ...state,
        request: this.requestOptions(),
      });
      return { id: data.id, name: data.name, headSha: data.head_sha, status: data.status };
    });
  }

  async updateCheckRun(checkRunId: number, state: CheckRunState): Promise<void> {
    await this.call('update the check run', (client) =>
      client.rest.checks.update({ owner: this.repo.owner, repo: this.repo.name, check_run_id: checkRunId, ...state, request: this.requestOptions() }),
    );
  }

  async listComments(prNumber: number): Promise<IssueComment[]> {
    return this.call('list the pull request comments', async (client) => {
      const comments = await client.paginate(client.rest.issues.listComments, {
        owner: this.repo.owner,
        repo: this.repo.name,
        issue_number: prNumber,
        per_page: 100,
        request: this.requestOptions(),
      });
      return comments.map((comment) => ({ id: comment.id, body: comment.body ?? '' }));
    });
  }

  async createComment(prNumber: number, body: string): Promise<IssueComment> {
    return this.call('create the pull request comment', async (client) => {
      const { data } = await client.rest.issues.createComment({
        owner: this.repo.owner,
        repo: this.repo.name,
        issue_number: prNumber,
        body,
        request: this.requestOptions(),
      });
      return { id: data.id, body: data.body ?? '' };
    });
  }

  async updateComment(commentId: number, body: string): Promise<void> {
    await this.call('update the pull request comment', (client) =>
      client.rest.issues.updateComment({ owner: this.repo.owner, repo: this.repo.name, comment_id: commentId, body, request: this.requestOptions() }),
    );
  }
}
