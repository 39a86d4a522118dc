// The GitHub code host over Octokit: public repository metadata, App installations and the
// repositories they grant, and open pull requests. Every client is built by one injectable
// factory with a configurable API base URL (tests point it at a loopback server speaking
// GitHub's protocol). App authentication is an Octokit auth strategy handed in by the host
// (`createAppAuth` from @octokit/auth-app with VCS_APP_ID and the private key): this adapter
// never reads keys itself, and tokens never appear in its errors or logs. @octokit/rest is loaded on
// the first call to GitHub (a dynamic import): a host that never reaches GitHub never loads it.
import type { Octokit } from '@octokit/rest';
import {
  NO_APP_MESSAGE,
  type CodeHost,
  type InstallationMetadata,
  type PublicRepositoryRef,
  type PullRequestMetadata,
  type RepositoryMetadata,
} from '../ports/code-host.js';
import { InvalidInputError, NotFoundError, UnavailableError } from '../services/errors.js';
import { storableText } from '../store/storable-text.js';
import { parseRepositoryRef } from './repository-url.js';
import { GitHubPrFeedbackChannel } from './github-pr-feedback.js';
import type { PullRequestFeedbackChannel } from '../ports/pr-feedback.js';

type OctokitOptions = NonNullable<ConstructorParameters<typeof Octokit>[0]>;

export interface GitHubAppAuth {
  /** An Octokit auth strategy for a GitHub App, e.g. `createAppAuth` from @octokit/auth-app. */
  authStrategy: NonNullable<OctokitOptions['authStrategy']>;
  /** The strategy's options (createAppAuth: `{ appId, privateKey }`); `installationId` is added per installation. */
  auth: Record<string, unknown>;
}

export interface GitHubCodeHostOptions {
  /** REST API root; default `https://api.github.com`. */
  baseUrl?: string;
  /** Token for public reads (a higher rate limit than anonymous calls). */
  token?: string;
  /** The App's credentials; without them installation sync answers 503. */
  app?: GitHubAppAuth;
  /** Builds every Octokit client (to add plugins such as throttling, or to instrument). */
  createOctokit?: (options: OctokitOptions) => Octokit;
  /** Timeout of one API call (a paginated listing counts as one); default 30 s. */
  timeoutMs?: number;
}

/** NotFoundError whose message says where the repository was looked for. */
class NotOnGitHubError extends NotFoundError {
  constructor(fullName: string) {
    super(`repository ${fullName}`);
    this.message = `repository ${fullName} not found on GitHub`;
  }
}

interface GitHubRepository {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string } | null;
  html_url: string;
  clone_url?: string;
  description: string | null;
  default_branch?: string;
  private: boolean;
}

interface GitHubRequestError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

/** What a failed GitHub call means for our callers; `fullName` names the repository for a 404. */
function mapError(error: unknown, fullName?: string): Error {
  const failure = error as GitHubRequestError;
  const status = typeof failure?.status === 'number' ? failure.status : undefined;
  const detail = (failure?.message ?? '').split(' - ')[0]!.slice(0, 200);
  if (status === 404 && fullName) return new NotOnGitHubError(fullName);
  if (status === 404) return new NotFoundError('GitHub resource');
  const headers = failure?.response?.headers ?? {};
  if (status === 429 || (status === 403 && String(headers['x-ratelimit-remaining']) === '0')) {
    const reset = Number(headers['x-ratelimit-reset']);
    const when = Number.isFinite(reset) && reset > 0 ? ` (resets at ${new Date(reset * 1000).toISOString()})` : '';
    return new UnavailableError(`GitHub API rate limit exceeded${when}; try again later`);
  }
  if (status === 401) return new UnavailableError('GitHub rejected the service credentials (401); check the App or token configuration');
  if (status === 403) return new UnavailableError(`GitHub refused the request (403): ${detail}`);
  if (status !== undefined && status >= 400 && status < 500) return new InvalidInputError(`GitHub refused the request (${status}): ${detail}`);
  return new UnavailableError(`GitHub is unavailable: ${detail || 'no response'}`);
}

function repositoryMetadata(repo: GitHubRepository, installationId: number): RepositoryMetadata {
  const owner = repo.owner?.login ?? repo.full_name.split('/')[0]!;
  return {
    provider: 'github',
    vcsId: repo.id,
    installationId,
    owner,
    name: repo.name,
    fullName: repo.full_name,
    url: repo.html_url,
    cloneUrl: repo.clone_url ?? `${repo.html_url}.git`,
    // GitHub passes a NUL in free text through; the store cannot hold one (U+FFFD in its place).
    description: storableText(repo.description ?? ''),
    defaultBranch: repo.default_branch ?? 'main',
    private: repo.private,
  };
}

export class GitHubCodeHost implements CodeHost {
  readonly provider = 'github';
  private publicClientPromise?: Promise<Octokit>;
  private appClient?: Promise<Octokit>;
  private readonly installationClients = new Map<number, Promise<Octokit>>();
  private readonly timeoutMs: number;

  constructor(private readonly options: GitHubCodeHostOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** True when App credentials are configured (installation sync is possible). */
  get hasApp(): boolean {
    return this.options.app !== undefined;
  }

  handles(ref: PublicRepositoryRef): boolean {
    return 'owner' in ref || !/^file:/i.test(ref.url);
  }

  async resolvePublic(ref: PublicRepositoryRef): Promise<RepositoryMetadata> {
    const location = parseRepositoryRef(ref, { allowLocal: false });
    if (location.provider !== 'github') throw new InvalidInputError('the GitHub code host takes GitHub repositories only');
    const fullName = `${location.owner}/${location.name}`;
    let repo: GitHubRepository;
    try {
      const response = await (await this.publicClient()).rest.repos.get({ owner: location.owner, repo: location.name, request: this.requestOptions() });
      repo = response.data as GitHubRepository;
    } catch (error) {
      throw mapError(error, fullName);
    }
    if (repo.private) {
      throw new InvalidInputError(
        `repository ${repo.full_name} is private: install the code-host App on it, sync the installations and link it by repository_id`,
      );
    }
    return repositoryMetadata(repo, 0);
  }

  async listInstallations(): Promise<InstallationMetadata[]> {
    const client = await this.requireApp();
    try {
      const installations = await client.paginate(client.rest.apps.listInstallations, { per_page: 100, request: this.requestOptions() });
      return installations.map((installation) => {
        const account = (installation.account ?? {}) as { login?: string; slug?: string; type?: string };
        return {
          provider: this.provider,
          installationId: installation.id,
          accountLogin: account.login ?? account.slug ?? '',
          accountType: account.type ?? installation.target_type ?? '',
          status: installation.suspended_at ? ('suspended' as const) : ('active' as const),
        };
      });
    } catch (error) {
      throw mapError(error);
    }
  }

  async listInstallationRepositories(installationId: number): Promise<RepositoryMetadata[]> {
    await this.requireApp();
    const client = await this.installationClient(installationId);
    try {
      const repos = await client.paginate(client.rest.apps.listReposAccessibleToInstallation, { per_page: 100, request: this.requestOptions() });
      return (repos as unknown as GitHubRepository[]).map((repo) => repositoryMetadata(repo, installationId));
    } catch (error) {
      throw mapError(error);
    }
  }

  /** Open pull requests; an installed repository is read with its installation's token. */
  async listPullRequests(repository: RepositoryMetadata): Promise<PullRequestMetadata[]> {
    const client = await this.clientFor(repository);
    try {
      const pulls = await client.paginate(client.rest.pulls.list, {
        owner: repository.owner,
        repo: repository.name,
        state: 'open',
        per_page: 100,
        request: this.requestOptions(),
      });
      return pulls.map((pull) => ({
        number: pull.number,
        title: storableText(pull.title),
        body: storableText(pull.body ?? ''),
        state: pull.state === 'closed' ? ('closed' as const) : ('open' as const),
        merged: pull.merged_at !== null && pull.merged_at !== undefined,
        author: pull.user?.login ?? '',
        baseBranch: pull.base.ref,
        headBranch: pull.head.ref,
        baseSha: pull.base.sha,
        headSha: pull.head.sha,
      }));
    } catch (error) {
      throw mapError(error, repository.fullName);
    }
  }

  /** GitHub lists at most 250 commits of a pull request: a head_sha is checked against those. */
  async listPullRequestCommits(repository: RepositoryMetadata, prNumber: number): Promise<string[] | undefined> {
    const client = await this.clientFor(repository);
    try {
      const commits = await client.paginate(client.rest.pulls.listCommits, {
        owner: repository.owner,
        repo: repository.name,
        pull_number: prNumber,
        per_page: 100,
        request: this.requestOptions(),
      });
      return commits.map((commit) => commit.sha.toLowerCase());
    } catch (error) {
      if ((error as GitHubRequestError)?.status === 404) return undefined;
      throw mapError(error, repository.fullName);
    }
  }

  /** A short-lived installation token (for git over HTTPS), fetched from the configured API root and cached until it expires. */
  async installationToken(installationId: number): Promise<string> {
    const client = await this.installationClient(installationId);
    try {
      const { token } = (await client.auth({ type: 'installation' })) as { token: string };
      return token;
    } catch (error) {
      throw mapError(error);
    }
  }

  /** Check runs and PR comments of a repository installed with the App (its installation's token); undefined otherwise. */
  pullRequestFeedback(repository: RepositoryMetadata): PullRequestFeedbackChannel | undefined {
    if (repository.installationId === 0 || !this.options.app) return undefined;
    return new GitHubPrFeedbackChannel(
      () => this.installationClient(repository.installationId),
      { owner: repository.owner, name: repository.name },
      () => this.requestOptions(),
    );
  }

  private requestOptions(): { signal: AbortSignal } {
    return { signal: AbortSignal.timeout(this.timeoutMs) };
  }

  private async client(extra: Partial<OctokitOptions>): Promise<Octokit> {
    const options: OctokitOptions = {
      baseUrl: this.options.baseUrl ?? 'https://api.github.com',
      userAgent: 'codehealth',
      // Octokit logs request failures at warn level; ours are mapped and reported by the caller.
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      ...extra,
    };
    if (this.options.createOctokit) return this.options.createOctokit(options);
    const { Octokit } = await import('@octokit/rest');
    return new Octokit(options);
  }

  /** Public reads: with the configured token, else anonymous. */
  private publicClient(): Promise<Octokit> {
    this.publicClientPromise ??= this.client(this.options.token ? { auth: this.options.token } : {});
    return this.publicClientPromise;
  }

  /** An installed repository is read with its installation's token; any other with the public client. */
  private clientFor(repository: RepositoryMetadata): Promise<Octokit> {
    return repository.installationId !== 0 && this.options.app ? this.installationClient(repository.installationId) : this.publicClient();
  }

  private async requireApp(): Promise<Octokit> {
    const app = this.options.app;
    if (!app) throw new UnavailableError(NO_APP_MESSAGE);
    this.appClient ??= this.client({ authStrategy: app.authStrategy, auth: app.auth });
    return this.appClient;
  }

  /** One client per installation: the strategy caches that installation's token until it expires. */
  private async installationClient(installationId: number): Promise<Octokit> {
    const app = this.options.app;
    if (!app) throw new UnavailableError(NO_APP_MESSAGE);
    let client = this.installationClients.get(installationId);
    if (!client) {
      client = this.client({ authStrategy: app.authStrategy, auth: { ...app.auth, installationId } });
      this.installationClients.set(installationId, client);
    }
    return client;
  }
}
