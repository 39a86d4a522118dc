// Repositories of a project: listing, linking (public/local repositories by URL, installation
// repositories by id), unlinking, and the pull-request metadata of a repository. A link and its
// onboarding session are written in one transaction; the onboarding workflow starts after the
// commit, and when it cannot start the link is taken back so that a retry starts clean.
import { randomUUID } from 'node:crypto';
import type { AddPublicRepositoryInput, AddPublicRepositoryResult, LinkRepositoriesInput, LinkRepositoriesResult, Repository } from '../api/repositories.js';
import { parseRepositoryRef } from '../code-hosts/repository-url.js';
import type { CodeHost, CodeHosts, PublicRepositoryRef } from '../ports/code-host.js';
import type { WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database, Sql } from '../store/database.js';
import { sqlState, UNIQUE_VIOLATION } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError, InvalidInputError, NotFoundError, UnavailableError } from './errors.js';
import { REPOSITORY_COLUMNS, repositoryMetadataOf, repositoryWire, upsertRepository, type RepositoryRow } from './repository-records.js';

export interface RepositoryServiceOptions {
  allowLocalRepos: boolean;
}

export interface PullRequestSyncResult {
  /** Open pull requests the code host reported (inserted or refreshed). */
  synced: number;
  /** Pull requests stored as open that the code host no longer reports, now closed. */
  closed: number;
}

/** A repository as the worker fetches it. */
export interface CheckoutSource extends Record<string, unknown> {
  id: string;
  name: string;
  full_name: string;
  clone_url: string;
  default_branch: string;
}

/** A synced pull request as the worker reads it. */
export interface PullRequestRow extends Record<string, unknown> {
  pr_number: number;
  title: string;
  body: string;
  state: string;
  author: string;
  base_branch: string;
  head_branch: string;
  base_sha: string;
  head_sha: string;
}

export class RepositoryService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
    private readonly codeHosts: CodeHosts,
    private readonly workflows: WorkflowStarter,
    private readonly options: RepositoryServiceOptions,
  ) {}

  // -- for the worker's activities (no actor: the workflow was authorised when it was started)

  /** Where to fetch a repository from, or undefined when it no longer exists. */
  async checkoutSource(repositoryId: string): Promise<CheckoutSource | undefined> {
    const rows = await this.db.query<CheckoutSource>('SELECT id, name, full_name, clone_url, default_branch FROM repositories WHERE id = $1', [repositoryId]);
    return rows[0];
  }

  /** Ids of the repositories linked to the project, oldest link first. */
  async linkedIds(projectId: string): Promise<string[]> {
    const rows = await this.db.query<{ repository_id: string }>(
      'SELECT repository_id FROM project_repositories WHERE project_id = $1 ORDER BY linked_at, repository_id',
      [projectId],
    );
    return rows.map((row) => row.repository_id);
  }

  /** The repository's pull requests as last synced, by number. */
  pullRequestRows(repositoryId: string): Promise<PullRequestRow[]> {
    return this.db.query<PullRequestRow>(
      `SELECT pr_number, title, body, state, author, base_branch, head_branch, base_sha, head_sha FROM pull_requests
        WHERE repository_id = $1 ORDER BY pr_number`,
      [repositoryId],
    );
  }

  /** Records the analyzers detected in a repository (onboarding). */
  async recordAnalyzers(repositoryId: string, analyzers: readonly { language: string; path: string; enabled: boolean; description: string }[]): Promise<void> {
    await this.db.query('UPDATE repositories SET analyzers = $2, updated_at = now() WHERE id = $1', [repositoryId, analyzers as never]);
  }

  /** The repositories linked to the project, oldest link first. */
  async list(actor: Actor, projectId: string): Promise<Repository[]> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<RepositoryRow>(
      `SELECT ${REPOSITORY_COLUMNS} FROM project_repositories pr JOIN repositories r ON r.id = pr.repository_id
        WHERE pr.project_id = $1 ORDER BY pr.linked_at, r.full_name, r.id`,
      [projectId],
    );
    return rows.map(repositoryWire);
  }

  /** Repositories of the caller's active installations that are not linked to the project yet. */
  async available(actor: Actor, projectId: string): Promise<Repository[]> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<RepositoryRow>(
      `SELECT ${REPOSITORY_COLUMNS} FROM repositories r
        WHERE r.installation_id <> 0
          AND EXISTS (SELECT 1 FROM vcs_installations i JOIN vcs_installation_users u ON u.installation_uuid = i.id
                       WHERE i.provider = r.provider AND i.installation_id = r.installation_id AND i.status = 'active' AND u.user_id = $2)
          AND NOT EXISTS (SELECT 1 FROM project_repositories pr WHERE pr.project_id = $1 AND pr.repository_id = r.id)
        ORDER BY lower(r.full_name), r.id`,
      [projectId, actor.userId],
    );
    return rows.map(repositoryWire);
  }

  /** Links a public (or, when allowed, local) repository, resolving its metadata at the code host. */
  async addPublic(actor: Actor, projectId: string, input: AddPublicRepositoryInput): Promise<AddPublicRepositoryResult> {
    await this.access.require(actor, projectId);
    const ref: PublicRepositoryRef = input.url !== undefined ? { url: input.url } : { owner: input.owner!, name: input.name! };
    const location = parseRepositoryRef(ref, { allowLocal: this.options.allowLocalRepos });
    const normalised: PublicRepositoryRef = location.provider === 'local' ? { url: location.url } : { owner: location.owner, name: location.name };
    const host = this.hostFor(location.provider, (candidate) => candidate.handles(normalised));
    const meta = await host.resolvePublic(normalised);
    const { repositoryId, sessionId } = await this.linkAndOpenSession(actor, projectId, input.skip_onboarding, async (tx) => {
      const id = await upsertRepository(tx, meta);
      return [id];
    });
    const [row] = await this.db.query<RepositoryRow>(`SELECT ${REPOSITORY_COLUMNS} FROM repositories r WHERE r.id = $1`, [repositoryId]);
    return { status: 'linked', repository: repositoryWire(row!), onboarding_session_id: sessionId };
  }

  /** Links repositories synced from installations the caller is associated with (all or none). */
  async link(actor: Actor, projectId: string, input: LinkRepositoriesInput): Promise<LinkRepositoriesResult> {
    await this.access.require(actor, projectId);
    const ids = [...new Set(input.repository_ids ?? [input.repository_id!])];
    const { repositoryIds, sessionId } = await this.linkAndOpenSession(actor, projectId, input.skip_onboarding, async (tx) => {
      const reachable = await tx.query<{ id: string }>(
        `SELECT r.id FROM repositories r
          WHERE r.id = ANY($1::uuid[]) AND r.installation_id <> 0
            AND EXISTS (SELECT 1 FROM vcs_installations i JOIN vcs_installation_users u ON u.installation_uuid = i.id
                         WHERE i.provider = r.provider AND i.installation_id = r.installation_id AND i.status = 'active' AND u.user_id = $2)`,
        [ids, actor.userId],
      );
      const found = new Set(reachable.map((row) => row.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        const named = `${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` (and ${missing.length - 10} more)` : ''}`;
        throw new MessageNotFoundError(
          `repository ${named} not found among the synced repositories of your code-host installations (sync them first); nothing was linked`,
        );
      }
      return ids;
    });
    return { status: 'linked', linked: repositoryIds.length, onboarding_session_id: sessionId };
  }

  /** Removes the link only: assessments, issues and PR analyses of the repository stay. */
  async unlink(actor: Actor, projectId: string, repositoryId: string): Promise<void> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query('DELETE FROM project_repositories WHERE project_id = $1 AND repository_id = $2 RETURNING repository_id', [
      projectId,
      repositoryId,
    ]);
    if (rows.length === 0) throw new NotFoundError('repository linked to this project');
  }

  /**
   * Refreshes the stored pull requests of a repository from its code host: open ones are
   * inserted or updated, stored open ones that the host no longer reports are closed.
   */
  async syncPullRequests(repositoryId: string): Promise<PullRequestSyncResult> {
    const [row] = await this.db.query<RepositoryRow>(`SELECT ${REPOSITORY_COLUMNS} FROM repositories r WHERE r.id = $1`, [repositoryId]);
    if (!row) throw new NotFoundError('repository');
    if (row.provider === 'local' && !this.options.allowLocalRepos) {
      throw new InvalidInputError('local (file://) repositories are read only in embedded mode (or with CODEHEALTH_ALLOW_LOCAL_REPOS=1)');
    }
    const host = this.hostFor(row.provider);
    if (!host.listPullRequests) throw new UnavailableError(`the ${row.provider} code host does not list pull requests`);
    const pulls = await host.listPullRequests(repositoryMetadataOf(row));
    return this.db.transaction(async (tx) => {
      for (const pull of pulls) {
        await tx.query(
          `INSERT INTO pull_requests (id, repository_id, pr_number, title, body, state, author, base_branch, head_branch, base_sha, head_sha, merged)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
           ON CONFLICT (repository_id, pr_number) DO UPDATE SET title = $4, body = $5, state = $6, author = $7, base_branch = $8,
             head_branch = $9, base_sha = $10, head_sha = $11, merged = $12, synced_at = now()`,
          [
            randomUUID(),
            repositoryId,
            pull.number,
            pull.title,
            pull.body,
            pull.state,
            pull.author,
            pull.baseBranch,
            pull.headBranch,
            pull.baseSha,
            pull.headSha,
            pull.merged,
          ],
        );
      }
      const closed = await tx.query(
        `UPDATE pull_requests SET state = 'closed', synced_at = now()
          WHERE repository_id = $1 AND state = 'open' AND NOT (pr_number = ANY($2::int[])) RETURNING pr_number`,
        [repositoryId, pulls.filter((pull) => pull.state === 'open').map((pull) => pull.number)],
      );
      return { synced: pulls.length, closed: closed.length };
    });
  }

  /** The commits of one pull request as its code host lists them; undefined when the host cannot say (no such PR there, or no listing). */
  async pullRequestCommits(repositoryId: string, prNumber: number): Promise<string[] | undefined> {
    const [row] = await this.db.query<RepositoryRow>(`SELECT ${REPOSITORY_COLUMNS} FROM repositories r WHERE r.id = $1`, [repositoryId]);
    if (!row) throw new NotFoundError('repository');
    const host = this.hostFor(row.provider);
    return host.listPullRequestCommits ? host.listPullRequestCommits(repositoryMetadataOf(row), prNumber) : undefined;
  }

  private hostFor(provider: string, accepts: (host: CodeHost) => boolean = () => true): CodeHost {
    const host = this.codeHosts.list().find((candidate) => candidate.provider === provider && accepts(candidate));
    if (!host) throw new UnavailableError(`no ${provider === 'local' ? 'local git' : provider} code host is configured`);
    return host;
  }

  /**
   * One transaction: `repositoriesOf` names (and may create) the repositories, they are linked,
   * and the onboarding session is opened (already `completed` when onboarding is skipped).
   * Then the workflow starts; if it cannot, the link and the session are removed again.
   */
  private async linkAndOpenSession(
    actor: Actor,
    projectId: string,
    skipOnboarding: boolean,
    repositoriesOf: (tx: Sql) => Promise<string[]>,
  ): Promise<{ repositoryId: string; repositoryIds: string[]; sessionId: string }> {
    const sessionId = randomUUID();
    let repositoryIds: string[];
    try {
      repositoryIds = await this.db.transaction(async (tx) => {
        const ids = await repositoriesOf(tx);
        const already = await tx.query<{ full_name: string }>(
          `SELECT r.full_name FROM project_repositories pr JOIN repositories r ON r.id = pr.repository_id
            WHERE pr.project_id = $1 AND pr.repository_id = ANY($2::uuid[]) ORDER BY r.full_name`,
          [projectId, ids],
        );
        if (already.length > 0) throw alreadyLinked(already.map((row) => row.full_name));
        for (const id of ids) {
          await tx.query('INSERT INTO project_repositories (project_id, repository_id, linked_by_user_id) VALUES ($1, $2, $3)', [projectId, id, actor.userId]);
        }
        await tx.query(
          `INSERT INTO onboarding_sessions (id, project_id, repository_ids, status, finished_at)
           VALUES ($1, $2, $3, $4, CASE WHEN $4 = 'completed' THEN now() END)`,
          [sessionId, projectId, ids, skipOnboarding ? 'completed' : 'pending'],
        );
        return ids;
      });
    } catch (error) {
      // Two concurrent links of the same repository: the loser sees the primary key.
      if (sqlState(error) === UNIQUE_VIOLATION) throw alreadyLinked([]);
      throw error;
    }
    if (!skipOnboarding) {
      try {
        await this.workflows.start({ kind: 'onboarding', projectId, sessionId, repositoryIds }, { requestedBy: actor.userId });
      } catch (error) {
        await this.db.transaction(async (tx) => {
          await tx.query('DELETE FROM onboarding_sessions WHERE id = $1', [sessionId]);
          await tx.query('DELETE FROM project_repositories WHERE project_id = $1 AND repository_id = ANY($2::uuid[])', [projectId, repositoryIds]);
        });
        // Too much work queued for this user or project (409): the reason says so, nothing was linked.
        if (error instanceof ConflictError) throw new ConflictError(`${error.message}; nothing was linked`);
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
        throw new UnavailableError(`the onboarding workflow could not be started, nothing was linked: ${reason}`);
      }
    }
    return { repositoryId: repositoryIds[0]!, repositoryIds, sessionId };
  }
}

/** A 404 whose message is written whole (NotFoundError appends "not found" to a noun). */
class MessageNotFoundError extends NotFoundError {
  constructor(message: string) {
    super('repository');
    this.message = message;
  }
}

function alreadyLinked(names: string[]): ConflictError {
  if (names.length === 0) return new ConflictError('the repository is already linked to this project');
  if (names.length === 1) return new ConflictError(`repository ${names[0]} is already linked to this project`);
  return new ConflictError(`repositories ${names.join(', ')} are already linked to this project; nothing was linked`);
}
