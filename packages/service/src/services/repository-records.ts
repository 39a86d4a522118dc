// Repository rows: the one upsert (a repository is one row however it became known, by public
// URL or through an installation) and the conversion to the wire object.
import { randomUUID } from 'node:crypto';
import type { Repository, RepositoryAnalyzer } from '../api/repositories.js';
import type { RepositoryMetadata } from '../ports/code-host.js';
import type { Sql } from '../store/database.js';
import { iso } from './time.js';

export interface RepositoryRow extends Record<string, unknown> {
  id: string;
  provider: string;
  vcs_id: number | string | bigint;
  installation_id: number | string | bigint;
  owner: string;
  name: string;
  full_name: string;
  url: string;
  clone_url: string;
  description: string;
  default_branch: string;
  analyzers: RepositoryAnalyzer[];
  private: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Columns of `repositories` (aliased `r`) that make a RepositoryRow. */
export const REPOSITORY_COLUMNS = `r.id, r.provider, r.vcs_id, r.installation_id, r.owner, r.name, r.full_name, r.url, r.clone_url,
  r.description, r.default_branch, r.analyzers, r.private, r.created_at, r.updated_at`;

// bigint columns arrive as strings (postgres.js) or bigints (PGlite); code-host ids fit a double.
export function repositoryWire(row: RepositoryRow): Repository {
  return {
    id: row.id,
    vcs_id: Number(row.vcs_id),
    installation_id: Number(row.installation_id),
    owner: row.owner,
    name: row.name,
    full_name: row.full_name,
    url: row.url,
    description: row.description,
    default_branch: row.default_branch,
    analyzers: row.analyzers,
    private: row.private,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The metadata a code host works with, from a stored row. */
export function repositoryMetadataOf(row: RepositoryRow): RepositoryMetadata {
  return {
    provider: row.provider,
    vcsId: Number(row.vcs_id),
    installationId: Number(row.installation_id),
    owner: row.owner,
    name: row.name,
    fullName: row.full_name,
    url: row.url,
    cloneUrl: row.clone_url,
    description: row.description,
    defaultBranch: row.default_branch,
    private: row.private,
  };
}

/**
 * Inserts or refreshes the row of a repository; returns its id. A code-host id identifies the
 * repository across renames; otherwise the URL does. Resolving a public repository
 * (installation 0) never detaches it from the installation it was synced from.
 */
export async function upsertRepository(sql: Sql, meta: RepositoryMetadata): Promise<string> {
  const values = [
    meta.provider,
    meta.vcsId,
    meta.installationId,
    meta.owner,
    meta.name,
    meta.fullName,
    meta.url,
    meta.cloneUrl,
    meta.description,
    meta.defaultBranch,
    meta.private,
  ];
  const set = `vcs_id = $2, installation_id = CASE WHEN $3::bigint <> 0 THEN $3::bigint ELSE repositories.installation_id END,
       owner = $4, name = $5, full_name = $6, url = $7, clone_url = $8, description = $9, default_branch = $10,
       private = $11, updated_at = now()`;
  if (meta.vcsId !== 0) {
    const renamed = await sql.query<{ id: string }>(
      `UPDATE repositories SET ${set}
        WHERE id = (SELECT id FROM repositories WHERE provider = $1 AND vcs_id = $2 ORDER BY created_at LIMIT 1)
       RETURNING id`,
      values,
    );
    if (renamed[0]) return renamed[0].id;
  }
  const rows = await sql.query<{ id: string }>(
    `INSERT INTO repositories (id, provider, vcs_id, installation_id, owner, name, full_name, url, clone_url, description, default_branch, private)
     VALUES ($12, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (provider, url) DO UPDATE SET ${set}
     RETURNING id`,
    [...values, randomUUID()],
  );
  return rows[0]!.id;
}
