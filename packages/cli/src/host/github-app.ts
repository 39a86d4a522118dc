// The GitHub App of a self-hosted deployment (VCS_APP_ID, VCS_PRIVATE_KEY_PATH): the code host's
// App auth, and installation tokens for cloning. Tokens live in memory only (@octokit/auth-app
// caches them until expiry) and reach git through the environment, never argv, disk or logs.
import { readFileSync } from 'node:fs';
import { createAppAuth } from '@octokit/auth-app';
import type { Database } from '@codehealth/service';

export interface GitHubAppConfig {
  appId: string;
  privateKeyPath: string;
}

export function githubAppAuth(config: GitHubAppConfig) {
  const privateKey = readFileSync(config.privateKeyPath, 'utf8');
  return { authStrategy: createAppAuth, auth: { appId: config.appId, privateKey } };
}

/**
 * `Authorization` header for git over HTTPS to a repository of an App installation, or undefined
 * for repositories outside any installation (public clones need none). `installationToken` is the
 * GitHub code host's (GitHubCodeHost.installationToken): tokens come from the configured API root
 * (VCS_API_URL) like every other GitHub call.
 */
export function installationCloneAuth(
  db: Database,
  installationToken: (installationId: number) => Promise<string>,
): (repositoryId: string) => Promise<string | undefined> {
  return async (repositoryId) => {
    const [row] = await db.query<{ installation_id: number | string }>("SELECT installation_id FROM repositories WHERE id = $1 AND provider = 'github'", [
      repositoryId,
    ]);
    if (!row || !Number(row.installation_id)) return undefined;
    const token = await installationToken(Number(row.installation_id));
    return `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  };
}
