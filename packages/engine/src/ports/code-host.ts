// The code-host port: where repositories and pull requests come from. Adapters: local git
// repositories (`file://`, offline use) and GitHub (App installations, public repositories).

export interface RepositoryMetadata {
  provider: string;
  vcsId: number;
  installationId: number;
  owner: string;
  name: string;
  fullName: string;
  /** Web URL shown to users. */
  url: string;
  /** What workers clone; never contains credentials. */
  cloneUrl: string;
  description: string;
  defaultBranch: string;
  private: boolean;
}

export interface PullRequestMetadata {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  author: string;
  baseBranch: string;
  headBranch: string;
  baseSha: string;
  headSha: string;
}

export type PublicRepositoryRef = { url: string } | { owner: string; name: string };

export interface CodeHost {
  readonly provider: string;
  /** True when this host handles the reference (e.g. `file://` URLs for the local host). */
  handles(ref: PublicRepositoryRef): boolean;
  /** Metadata of a public repository; throws InvalidInputError/NotFoundError with a clear message. */
  resolvePublic(ref: PublicRepositoryRef): Promise<RepositoryMetadata>;
  /** The repository's pull requests (open ones at least), for PR metadata sync. */
  listPullRequests?(repository: RepositoryMetadata): Promise<PullRequestMetadata[]>;
}

/** The configured code hosts, tried in order. */
export interface CodeHosts {
  list(): readonly CodeHost[];
}

export function staticCodeHosts(hosts: readonly CodeHost[]): CodeHosts {
  return { list: () => hosts };
}
