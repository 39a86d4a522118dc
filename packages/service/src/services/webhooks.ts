// Inbound GitHub webhooks, after the host verified the signature: each delivery is recorded once
// (`webhook_deliveries`, in the same transaction as its store effects) under its delivery id and
// the digest of its signed body, so that neither a redelivery nor a captured body re-sent under a
// new delivery id (within the replay window) is processed twice; then it is dispatched: pull
// requests are stored and analysed, pushes to the default branch and merges into it queue
// assessments, installation events keep installations and their repositories current.
import { randomUUID } from 'node:crypto';
import type { WebhookAction, WebhookResponse } from '../api/webhooks.js';
import type { CodeHosts, PullRequestMetadata, RepositoryMetadata } from '../ports/code-host.js';
import type { Database, Sql } from '../store/database.js';
import { replaceNul } from '../store/storable-text.js';
import { ConflictError, NotFoundError } from './errors.js';
import type { HealthService } from './health.js';
import type { PrAnalysisService } from './pr-analyses.js';
import { upsertRepository } from './repository-records.js';
import {
  ANALYSED_PR_ACTIONS,
  readGitHubEvent,
  type GrantedRepository,
  type InstallationFacts,
  type WebhookCommand,
  type WebhookRepository,
} from './webhook-events.js';

/** How long a recorded delivery's body digest turns the same body under another delivery id into a duplicate. */
export const WEBHOOK_REPLAY_WINDOW_DAYS = 30;

export interface GitHubDelivery {
  /** `X-GitHub-Delivery`: the idempotency key. */
  id: string;
  /** SHA-256 (hex) of the exact signed body: the replay key (the signature covers no delivery id or time). */
  bodySha256: string;
  /** `X-GitHub-Event`. */
  event: string;
  payload: unknown;
}

interface KnownRepository {
  id: string;
  defaultBranch: string;
  projectIds: string[];
}

type Command<K extends WebhookCommand['kind']> = Extract<WebhookCommand, { kind: K }>;
type InstallationStatus = 'active' | 'suspended' | 'deleted';

/** Thrown inside the recording transaction (rolling it back) when the delivery was processed before. */
class DuplicateDelivery extends Error {}

export class WebhookService {
  constructor(
    private readonly db: Database,
    private readonly health: HealthService,
    private readonly prAnalyses: PrAnalysisService,
    private readonly codeHosts: CodeHosts,
  ) {}

  async receiveGitHub(delivery: GitHubDelivery): Promise<WebhookResponse> {
    // GitHub passes a NUL in a commit message or title through: kept as U+FFFD, and said so.
    const storable = replaceNul(delivery.payload);
    const response = await this.dispatch(delivery, readGitHubEvent(delivery.event, storable.value));
    if (response.status === 'processed' && storable.count > 0) response.actions.push({ type: 'nul_replaced', count: storable.count, paths: storable.paths });
    return response;
  }

  private async dispatch(delivery: GitHubDelivery, command: WebhookCommand): Promise<WebhookResponse> {
    switch (command.kind) {
      case 'ping':
        return { status: 'pong' };
      case 'ignored':
        return { status: 'ignored', reason: command.reason };
      case 'pull_request':
        return this.pullRequest(delivery, command);
      case 'push':
        return this.push(delivery, command);
      case 'installation':
      case 'installation_repositories':
        return this.installation(delivery, command);
    }
  }

  private async pullRequest(delivery: GitHubDelivery, command: Command<'pull_request'>): Promise<WebhookResponse> {
    const repository = await this.findRepository(command.repository);
    if (!repository) return { status: 'ignored', reason: `repository ${command.repository.full_name} is not known to the service` };
    const pull = command.pullRequest;
    const recorded = await this.record(delivery, async (tx) => {
      await refreshDefaultBranch(tx, repository.id, command.repository);
      await upsertPullRequest(tx, repository.id, pull);
    });
    if (!recorded) return { status: 'duplicate' };
    const actions: WebhookAction[] = [
      { type: 'pull_request_updated', repository_id: repository.id, pr_number: pull.number, state: pull.state, merged: pull.merged, head_sha: pull.headSha },
    ];
    const analyse = (ANALYSED_PR_ACTIONS as readonly string[]).includes(command.action) && pull.state === 'open';
    // Only a merge into the default branch changes what an assessment sees.
    const defaultBranch = command.repository.default_branch ?? repository.defaultBranch;
    const mergedIntoDefault = command.action === 'closed' && pull.merged && pull.baseBranch === defaultBranch;
    if (!analyse && !mergedIntoDefault) return { status: 'processed', event: delivery.event, actions };
    return this.startRuns(delivery, actions, repository.projectIds, async (projectId) => {
      if (mergedIntoDefault) return this.assess(projectId, 'pr_merge');
      const run = await this.prAnalyses.enqueue(projectId, repository.id, pull.number, pull.headSha);
      return {
        type: 'pr_analysis',
        project_id: projectId,
        repository_id: repository.id,
        pr_number: pull.number,
        head_sha: pull.headSha,
        analysis_id: run.analysisId,
        workflow_id: run.workflowId,
        created: run.created,
      };
    });
  }

  private async push(delivery: GitHubDelivery, command: Command<'push'>): Promise<WebhookResponse> {
    const repository = await this.findRepository(command.repository);
    if (!repository) return { status: 'ignored', reason: `repository ${command.repository.full_name} is not known to the service` };
    const defaultBranch = command.repository.default_branch ?? repository.defaultBranch;
    if (command.branch !== defaultBranch) return { status: 'ignored', reason: `push to branch ${command.branch}, not the default branch ${defaultBranch}` };
    if (repository.projectIds.length === 0) return { status: 'ignored', reason: `repository ${command.repository.full_name} is not linked to any project` };
    const recorded = await this.record(delivery, (tx) => refreshDefaultBranch(tx, repository.id, command.repository));
    if (!recorded) return { status: 'duplicate' };
    return this.startRuns(delivery, [], repository.projectIds, (projectId) => this.assess(projectId, 'push'));
  }

  private async installation(delivery: GitHubDelivery, command: Command<'installation' | 'installation_repositories'>): Promise<WebhookResponse> {
    const facts = command.installation;
    const granted =
      command.kind === 'installation' ? (['created', 'new_permissions_accepted'].includes(command.action) ? command.repositories : []) : command.added;
    const revoked = command.kind === 'installation_repositories' ? command.removed : [];
    const status = installationStatus(command);
    if (await this.seen(delivery)) return { status: 'duplicate' };
    // Metadata of granted repositories the store does not hold yet (default branch, URLs) comes from
    // the code host before the transaction; without App credentials the next installation sync does it.
    const fetched = status === 'active' ? await this.fetchUnknown(facts.installationId, granted) : [];
    const actions = await this.record(delivery, async (tx) => {
      const done: WebhookAction[] = [];
      await tx.query(
        `INSERT INTO vcs_installations (id, provider, installation_id, account_login, account_type, status)
         VALUES ($1, 'github', $2, $3, $4, $5)
         ON CONFLICT (provider, installation_id) DO UPDATE
           SET account_login = CASE WHEN $3 = '' THEN vcs_installations.account_login ELSE $3 END,
               account_type = CASE WHEN $4 = '' THEN vcs_installations.account_type ELSE $4 END,
               status = $5, updated_at = now()`,
        [randomUUID(), facts.installationId, facts.accountLogin, facts.accountType, status],
      );
      done.push({ type: 'installation_updated', installation_id: facts.installationId, status });
      if (status === 'deleted') {
        const detached = await tx.query<{ id: string }>(
          `UPDATE repositories SET installation_id = 0, updated_at = now() WHERE provider = 'github' AND installation_id = $1 RETURNING id`,
          [facts.installationId],
        );
        done.push({ type: 'repositories_detached', installation_id: facts.installationId, repository_ids: detached.map((row) => row.id).sort() });
      }
      if (granted.length > 0) done.push(await attach(tx, facts, granted, fetched));
      if (revoked.length > 0) {
        const detached = await tx.query<{ id: string }>(
          `UPDATE repositories SET installation_id = 0, updated_at = now()
            WHERE provider = 'github' AND installation_id = $1 AND vcs_id = ANY($2::bigint[]) RETURNING id`,
          [facts.installationId, revoked.map((repository) => repository.id)],
        );
        done.push({ type: 'repositories_detached', installation_id: facts.installationId, repository_ids: detached.map((row) => row.id).sort() });
      }
      return done;
    });
    if (!actions) return { status: 'duplicate' };
    return { status: 'processed', event: delivery.event, actions: actions.value };
  }

  /** Granted repositories unknown to the store, as the code host describes them; none when it cannot say. */
  private async fetchUnknown(installationId: number, granted: readonly GrantedRepository[]): Promise<RepositoryMetadata[]> {
    if (granted.length === 0) return [];
    const known = await this.db.query<{ vcs_id: number | string | bigint }>(
      `SELECT vcs_id FROM repositories WHERE provider = 'github' AND vcs_id = ANY($1::bigint[])`,
      [granted.map((repository) => repository.id)],
    );
    const knownIds = new Set(known.map((row) => Number(row.vcs_id)));
    const unknown = new Set(granted.filter((repository) => !knownIds.has(repository.id)).map((repository) => repository.id));
    const host = this.codeHosts.list().find((candidate) => candidate.provider === 'github' && candidate.listInstallationRepositories);
    if (unknown.size === 0 || !host) return [];
    try {
      const listed = await host.listInstallationRepositories!(installationId);
      return listed.filter((repository) => unknown.has(repository.vcsId));
    } catch {
      // No App credentials, or GitHub unreachable: the delivery still records what it can.
      return [];
    }
  }

  /** Runs `effects` with the delivery recorded in one transaction; undefined when it was recorded before. */
  private async record<T>(delivery: GitHubDelivery, effects: (tx: Sql) => Promise<T>): Promise<{ value: T } | undefined> {
    try {
      return await this.db.transaction(async (tx) => {
        // A digest older than the window no longer stands for its body (the row, and its id, stay).
        await tx.query('UPDATE webhook_deliveries SET body_sha256 = NULL WHERE body_sha256 = $1 AND received_at < now() - make_interval(days => $2)', [
          delivery.bodySha256,
          WEBHOOK_REPLAY_WINDOW_DAYS,
        ]);
        // Either unique key (delivery id, body digest) already recorded makes this a duplicate.
        const inserted = await tx.query(
          'INSERT INTO webhook_deliveries (delivery_id, event, body_sha256) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING delivery_id',
          [delivery.id, delivery.event, delivery.bodySha256],
        );
        if (inserted.length === 0) throw new DuplicateDelivery();
        return { value: await effects(tx) };
      });
    } catch (error) {
      if (error instanceof DuplicateDelivery) return undefined;
      throw error;
    }
  }

  private async seen(delivery: GitHubDelivery): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM webhook_deliveries
        WHERE delivery_id = $1 OR (body_sha256 = $2 AND received_at >= now() - make_interval(days => $3))`,
      [delivery.id, delivery.bodySha256, WEBHOOK_REPLAY_WINDOW_DAYS],
    );
    return rows.length > 0;
  }

  /**
   * Starts the runs of a recorded delivery, one per linked project. Projects that cannot take a run
   * any more (unlinked or deleted meanwhile) are reported and skipped. Any other failure (workflow
   * engine unavailable) forgets the delivery (its id and body digest), so that GitHub's redelivery runs it again: the store
   * effects are upserts, and the runs coalesce with those already started.
   */
  private async startRuns(
    delivery: GitHubDelivery,
    actions: WebhookAction[],
    projectIds: readonly string[],
    start: (projectId: string) => Promise<WebhookAction>,
  ): Promise<WebhookResponse> {
    try {
      for (const projectId of projectIds) {
        try {
          actions.push(await start(projectId));
        } catch (error) {
          if (!(error instanceof NotFoundError || error instanceof ConflictError)) throw error;
          actions.push({ type: 'project_skipped', project_id: projectId, reason: error.message });
        }
      }
    } catch (error) {
      await this.db.query('DELETE FROM webhook_deliveries WHERE delivery_id = $1', [delivery.id]).catch(() => {});
      throw error;
    }
    return { status: 'processed', event: delivery.event, actions };
  }

  private async assess(projectId: string, trigger: 'push' | 'pr_merge'): Promise<WebhookAction> {
    const run = await this.health.enqueue(projectId, trigger);
    return {
      type: 'health_assessment',
      project_id: projectId,
      trigger_type: trigger,
      assessment_id: run.assessmentId,
      workflow_id: run.workflowId,
      created: run.created,
    };
  }

  /** By GitHub's repository id (stable across renames), else by full name; with the projects it is linked to. */
  private async findRepository(repository: WebhookRepository): Promise<KnownRepository | undefined> {
    const [row] = await this.db.query<{ id: string; default_branch: string }>(
      `SELECT id, default_branch FROM repositories
        WHERE provider = 'github' AND (vcs_id = $1 OR lower(full_name) = lower($2))
        ORDER BY (vcs_id = $1) DESC, created_at, id LIMIT 1`,
      [repository.id, repository.full_name],
    );
    if (!row) return undefined;
    const links = await this.db.query<{ project_id: string }>(
      'SELECT project_id FROM project_repositories WHERE repository_id = $1 ORDER BY linked_at, project_id',
      [row.id],
    );
    return { id: row.id, defaultBranch: row.default_branch, projectIds: links.map((link) => link.project_id) };
  }
}

function installationStatus(command: Command<'installation' | 'installation_repositories'>): InstallationStatus {
  if (command.kind === 'installation') {
    if (command.action === 'deleted') return 'deleted';
    if (command.action === 'suspend') return 'suspended';
    if (command.action === 'unsuspend') return 'active';
  }
  return command.installation.suspended ? 'suspended' : 'active';
}

/** Attaches granted repositories to the installation: known rows by GitHub id, fetched ones upserted. */
async function attach(
  tx: Sql,
  facts: InstallationFacts,
  granted: readonly GrantedRepository[],
  fetched: readonly RepositoryMetadata[],
): Promise<WebhookAction> {
  const ids = new Set<string>();
  for (const repository of fetched) ids.add(await upsertRepository(tx, repository));
  const attached = await tx.query<{ id: string; vcs_id: number | string | bigint }>(
    `UPDATE repositories SET installation_id = $1, updated_at = now()
      WHERE provider = 'github' AND vcs_id = ANY($2::bigint[]) RETURNING id, vcs_id`,
    [facts.installationId, granted.map((repository) => repository.id)],
  );
  for (const row of attached) ids.add(row.id);
  const attachedVcsIds = new Set(attached.map((row) => Number(row.vcs_id)));
  return {
    type: 'repositories_attached',
    installation_id: facts.installationId,
    repository_ids: [...ids].sort(),
    unknown_full_names: granted.filter((repository) => !attachedVcsIds.has(repository.id)).map((repository) => repository.full_name),
  };
}

async function upsertPullRequest(tx: Sql, repositoryId: string, pull: PullRequestMetadata): Promise<void> {
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

/** Pull-request and push payloads carry the repository's current default branch: keep ours current. */
async function refreshDefaultBranch(tx: Sql, repositoryId: string, repository: WebhookRepository): Promise<void> {
  if (!repository.default_branch) return;
  await tx.query('UPDATE repositories SET default_branch = $2, updated_at = now() WHERE id = $1 AND default_branch <> $2', [
    repositoryId,
    repository.default_branch,
  ]);
}
