// GitHub webhook payloads turned into commands: only the fields the service acts on are read,
// each validated (a payload missing one is a 400 naming it), and events or actions the service
// does not act on become `ignored` with the reason. Pure: no store, no network.
import { z } from 'zod';
import type { PullRequestMetadata } from '../ports/code-host.js';
import { InvalidInputError } from './errors.js';

const RepositoryPayload = z.object({
  id: z.number().int().positive(),
  full_name: z
    .string()
    .min(3)
    .regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
  default_branch: z.string().min(1).optional(),
  description: z.string().nullable().optional(),
  private: z.boolean().optional(),
});
export type WebhookRepository = z.infer<typeof RepositoryPayload>;

const PullRequestPayload = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({
    title: z.string(),
    body: z.string().nullable().optional(),
    state: z.enum(['open', 'closed']),
    merged: z.boolean().nullable().optional(),
    merged_at: z.string().nullable().optional(),
    user: z.object({ login: z.string() }).nullable().optional(),
    base: z.object({ ref: z.string(), sha: z.string().regex(/^[0-9a-f]{40,64}$/) }),
    head: z.object({ ref: z.string(), sha: z.string().regex(/^[0-9a-f]{40,64}$/) }),
  }),
  repository: RepositoryPayload,
});

const PushPayload = z.object({
  ref: z.string().min(1),
  after: z.string(),
  deleted: z.boolean().optional(),
  repository: RepositoryPayload,
});

const InstallationPayload = z.object({
  id: z.number().int().positive(),
  account: z.object({ login: z.string().optional(), slug: z.string().optional(), type: z.string().optional() }).nullable().optional(),
  target_type: z.string().optional(),
  suspended_at: z.string().nullable().optional(),
});

const GrantedRepository = z.object({ id: z.number().int().positive(), full_name: z.string().min(1) });
export type GrantedRepository = z.infer<typeof GrantedRepository>;

const InstallationEventPayload = z.object({
  action: z.string(),
  installation: InstallationPayload,
  repositories: z.array(GrantedRepository).nullable().optional(),
});

const InstallationRepositoriesPayload = z.object({
  action: z.string(),
  installation: InstallationPayload,
  repositories_added: z.array(GrantedRepository).default([]),
  repositories_removed: z.array(GrantedRepository).default([]),
});

export interface InstallationFacts {
  installationId: number;
  accountLogin: string;
  accountType: string;
  suspended: boolean;
}

/** Pull-request actions that start an analysis of the head commit. */
export const ANALYSED_PR_ACTIONS = ['opened', 'synchronize', 'reopened'] as const;
/** Pull-request actions that only refresh the stored pull request (a merge also queues an assessment). */
const REFRESHED_PR_ACTIONS = ['closed', 'edited'] as const;
export type PullRequestAction = (typeof ANALYSED_PR_ACTIONS)[number] | (typeof REFRESHED_PR_ACTIONS)[number];

export type WebhookCommand =
  | { kind: 'ping' }
  | { kind: 'ignored'; reason: string }
  | {
      kind: 'pull_request';
      action: PullRequestAction;
      repository: WebhookRepository;
      pullRequest: PullRequestMetadata;
    }
  | { kind: 'push'; repository: WebhookRepository; branch: string; after: string }
  | {
      kind: 'installation';
      action: 'created' | 'deleted' | 'suspend' | 'unsuspend' | 'new_permissions_accepted';
      installation: InstallationFacts;
      repositories: GrantedRepository[];
    }
  | { kind: 'installation_repositories'; installation: InstallationFacts; added: GrantedRepository[]; removed: GrantedRepository[] };

function parse<T extends z.ZodType>(event: string, schema: T, payload: unknown): z.output<T> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 5).map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  throw new InvalidInputError(`invalid ${event} payload: ${issues.join('; ')}`);
}

function installationFacts(installation: z.output<typeof InstallationPayload>): InstallationFacts {
  return {
    installationId: installation.id,
    accountLogin: installation.account?.login ?? installation.account?.slug ?? '',
    accountType: installation.account?.type ?? installation.target_type ?? '',
    suspended: Boolean(installation.suspended_at),
  };
}

const NULL_SHA = /^0+$/;

function pullRequestCommand(payload: unknown): WebhookCommand {
  const { action } = parse('pull_request', z.object({ action: z.string() }), payload);
  const analysed = (ANALYSED_PR_ACTIONS as readonly string[]).includes(action);
  if (!analysed && !(REFRESHED_PR_ACTIONS as readonly string[]).includes(action))
    return { kind: 'ignored', reason: `pull_request action "${action}" is not acted on` };
  const data = parse('pull_request', PullRequestPayload, payload);
  const pull = data.pull_request;
  return {
    kind: 'pull_request',
    action: action as PullRequestAction,
    repository: data.repository,
    pullRequest: {
      number: data.number,
      title: pull.title,
      body: pull.body ?? '',
      state: pull.state,
      merged: pull.merged === true || (pull.merged === undefined && Boolean(pull.merged_at)),
      author: pull.user?.login ?? '',
      baseBranch: pull.base.ref,
      headBranch: pull.head.ref,
      baseSha: pull.base.sha,
      headSha: pull.head.sha,
    },
  };
}

function pushCommand(payload: unknown): WebhookCommand {
  const data = parse('push', PushPayload, payload);
  if (!data.ref.startsWith('refs/heads/')) return { kind: 'ignored', reason: `push to ${data.ref} is not a branch` };
  const branch = data.ref.slice('refs/heads/'.length);
  if (data.deleted || NULL_SHA.test(data.after)) return { kind: 'ignored', reason: `push deleted branch ${branch}` };
  return { kind: 'push', repository: data.repository, branch, after: data.after };
}

function installationCommand(payload: unknown): WebhookCommand {
  const data = parse('installation', InstallationEventPayload, payload);
  const actions = ['created', 'deleted', 'suspend', 'unsuspend', 'new_permissions_accepted'] as const;
  const action = actions.find((candidate) => candidate === data.action);
  if (!action) return { kind: 'ignored', reason: `installation action "${data.action}" is not acted on` };
  return { kind: 'installation', action, installation: installationFacts(data.installation), repositories: data.repositories ?? [] };
}

function installationRepositoriesCommand(payload: unknown): WebhookCommand {
  const data = parse('installation_repositories', InstallationRepositoriesPayload, payload);
  if (data.action !== 'added' && data.action !== 'removed')
    return { kind: 'ignored', reason: `installation_repositories action "${data.action}" is not acted on` };
  return {
    kind: 'installation_repositories',
    installation: installationFacts(data.installation),
    added: data.repositories_added,
    removed: data.repositories_removed,
  };
}

/** The command for one delivery of `event` (the `X-GitHub-Event` header). */
export function readGitHubEvent(event: string, payload: unknown): WebhookCommand {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new InvalidInputError(`invalid ${event} payload: expected a JSON object`);
  switch (event) {
    case 'ping':
      return { kind: 'ping' };
    case 'pull_request':
      return pullRequestCommand(payload);
    case 'push':
      return pushCommand(payload);
    case 'installation':
      return installationCommand(payload);
    case 'installation_repositories':
      return installationRepositoriesCommand(payload);
    default:
      return { kind: 'ignored', reason: `event "${event}" is not acted on` };
  }
}
