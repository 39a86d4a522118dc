// The code-host port: where repositories and pull requests come from. Adapters: local git
// repositories (`file://`, offline use) and GitHub (App installations, public repositories).
import type { PullRequestFeedbackChannel } from './pr-feedback.js';

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

/** A code-host App installation (an account that installed the App). */
export interface InstallationMetadata {
  provider: string;
  installationId: number;
  accountLogin: string;
  /** As the host names it, e.g. `Organization` or `User`. */
  accountType: string;
  /** `active`, or `suspended` when the account suspended the App. */
  status: 'active' | 'suspended';
}

export interface CodeHost {
  readonly provider: string;
  /** True when this host handles the reference (e.g. `file://` URLs for the local host). */
  handles(ref: PublicRepositoryRef): boolean;
  /** Metadata of a public repository; throws InvalidInputError/NotFoundError with a clear message. */
  resolvePublic(ref: PublicRepositoryRef): Promise<RepositoryMetadata>;
  /** The repository's pull requests (open ones at least), for PR metadata sync. */
  listPullRequests?(repository: RepositoryMetadata): Promise<PullRequestMetadata[]>;
  /**
   * The commits of one pull request (full ids, its head among them), to refuse a head the PR does
   * not have; undefined when the host does not know the pull request.
   */
  listPullRequestCommits?(repository: RepositoryMetadata, prNumber: number): Promise<string[] | undefined>;
  /**
   * The App's installations. Hosts that can have an App implement it; it throws UnavailableError
   * when the App's credentials are not configured.
   */
  listInstallations?(): Promise<InstallationMetadata[]>;
  /** Repositories one installation grants access to (`installationId` set on each). */
  listInstallationRepositories?(installationId: number): Promise<RepositoryMetadata[]>;
  /** Check runs and PR comments on a repository the App is installed on; undefined when the host cannot post there. */
  pullRequestFeedback?(repository: RepositoryMetadata): PullRequestFeedbackChannel | undefined;
}

/** The 503 message when no code host has App credentials (installation sync needs them). */
export const NO_APP_MESSAGE = 'no code-host App is configured (set VCS_APP_ID and VCS_PRIVATE_KEY_PATH)';

/** The configured code hosts, tried in order. */
export interface CodeHosts {
  list(): readonly CodeHost[];
}

export function staticCodeHosts(hosts: readonly CodeHost[]): CodeHosts {
  return { list: () => hosts };
}
