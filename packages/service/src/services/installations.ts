// Code-host App installations: sync reads the App's installations and the repositories each one
// grants from the code host, stores them, and associates the caller with the synced
// installations, which makes their repositories available for linking. Users of this service
// have no code-host identity (API keys only), so an installation of the deployment's own App is
// open to every user who syncs it; omitting `installation_ids` syncs all of them.
import { randomUUID } from 'node:crypto';
import type { Installation, SyncInstallationsInput } from '../api/repositories.js';
import { NO_APP_MESSAGE, type CodeHost, type CodeHosts, type InstallationMetadata, type RepositoryMetadata } from '../ports/code-host.js';
import type { Database } from '../store/database.js';
import type { Actor } from './actor.js';
import { NotFoundError, UnavailableError } from './errors.js';
import { upsertRepository } from './repository-records.js';
import { iso } from './time.js';

interface InstallationRow extends Record<string, unknown> {
  id: string;
  provider: string;
  installation_id: number | string | bigint;
  account_login: string;
  account_type: string;
  status: string;
  created_at: Date;
}

interface HostSync {
  host: CodeHost;
  /** Every installation the host reported (a full sync marks the others deleted). */
  all: InstallationMetadata[];
  chosen: InstallationMetadata[];
  repositories: Map<number, RepositoryMetadata[]>;
}

/** A 404 whose message is written whole. */
class InstallationNotFoundError extends NotFoundError {
  constructor(ids: number[]) {
    super('installation');
    this.message = `installation ${ids.join(', ')} not found among the code-host App's installations; nothing was synced`;
  }
}

function wire(row: InstallationRow): Installation {
  return {
    id: row.id,
    provider: row.provider,
    installation_id: Number(row.installation_id),
    account_login: row.account_login,
    account_type: row.account_type,
    status: row.status,
    created_at: iso(row.created_at),
  };
}

export class InstallationService {
  constructor(
    private readonly db: Database,
    private readonly codeHosts: CodeHosts,
  ) {}

  async sync(actor: Actor, input: SyncInstallationsInput): Promise<Installation[]> {
    const hosts = this.codeHosts.list().filter((host) => host.listInstallations && host.listInstallationRepositories);
    if (hosts.length === 0) throw new UnavailableError(NO_APP_MESSAGE);
    const requested = input.installation_ids ? new Set(input.installation_ids) : undefined;

    // Everything is read from the code hosts first, so the writes below are one short transaction.
    const syncs: HostSync[] = [];
    for (const host of hosts) {
      const all = await host.listInstallations!();
      const chosen = requested ? all.filter((installation) => requested.has(installation.installationId)) : all;
      const repositories = new Map<number, RepositoryMetadata[]>();
      // A suspended installation gets no tokens; its repositories stay as last synced.
      for (const installation of chosen) {
        if (installation.status === 'active')
          repositories.set(installation.installationId, await host.listInstallationRepositories!(installation.installationId));
      }
      syncs.push({ host, all, chosen, repositories });
    }
    if (requested) {
      const found = new Set(syncs.flatMap((sync) => sync.chosen.map((installation) => installation.installationId)));
      const missing = [...requested].filter((id) => !found.has(id));
      if (missing.length > 0) throw new InstallationNotFoundError(missing);
    }

    const ids = await this.db.transaction(async (tx) => {
      const synced: string[] = [];
      for (const { host, all, chosen, repositories } of syncs) {
        for (const installation of chosen) {
          const [row] = await tx.query<{ id: string }>(
            `INSERT INTO vcs_installations (id, provider, installation_id, account_login, account_type, status)
             VALUES ($6, $1, $2, $3, $4, $5)
             ON CONFLICT (provider, installation_id) DO UPDATE
               SET account_login = $3, account_type = $4, status = $5, updated_at = now()
             RETURNING id`,
            [host.provider, installation.installationId, installation.accountLogin, installation.accountType, installation.status, randomUUID()],
          );
          synced.push(row!.id);
          await tx.query('INSERT INTO vcs_installation_users (installation_uuid, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [row!.id, actor.userId]);
          const granted = repositories.get(installation.installationId);
          if (!granted) continue;
          const kept: string[] = [];
          for (const repository of granted) kept.push(await upsertRepository(tx, repository));
          // Repositories the installation no longer grants are detached: not available, not linkable.
          await tx.query(
            `UPDATE repositories SET installation_id = 0, updated_at = now()
              WHERE provider = $1 AND installation_id = $2 AND NOT (id = ANY($3::uuid[]))`,
            [host.provider, installation.installationId, kept],
          );
        }
        if (!requested) {
          await tx.query(
            `UPDATE vcs_installations SET status = 'deleted', updated_at = now()
              WHERE provider = $1 AND status <> 'deleted' AND NOT (installation_id = ANY($2::bigint[]))`,
            [host.provider, all.map((installation) => installation.installationId)],
          );
        }
      }
      return synced;
    });
    const rows = await this.db.query<InstallationRow>(
      `SELECT id, provider, installation_id, account_login, account_type, status, created_at FROM vcs_installations
        WHERE id = ANY($1::uuid[]) ORDER BY provider, installation_id`,
      [ids],
    );
    return rows.map(wire);
  }
}
