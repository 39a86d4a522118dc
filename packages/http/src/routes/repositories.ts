// Repositories and code-host installations (spec section 4, "Repositories"). The decisions the
// spec leaves open are stated in each route's description (they go into the OpenAPI document).
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams, projectParamsWith } from '../params.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const TAG = 'Repositories';

const ONBOARDING =
  'Unless `skip_onboarding` is true, an onboarding session is opened and the onboarding workflow (clone, analyzer detection, ' +
  'initial assessment, architecture documentation) starts; its progress stream is addressed by `onboarding_session_id`. ' +
  'With `skip_onboarding` the session is still created, already `completed`, and no workflow runs, so the field is always a UUID. ' +
  'The link and the session are written in one transaction; if the workflow cannot be started the link is removed again and the ' +
  'call answers 503. Linking a repository that is already linked to the project answers 409 and links nothing, and so does a ' +
  'link whose onboarding would exceed the queued work allowed per user or per project (embedded runner: ' +
  'CODEHEALTH_QUEUE_LIMIT_PER_USER, default 20, and CODEHEALTH_QUEUE_LIMIT_PER_PROJECT, default 10, runs queued or running).';

const syncInstallations = (path: string, operationId: string, summary: string): RouteDefinition =>
  defineRoute({
    method: 'POST',
    path,
    operationId,
    summary,
    description:
      'Reads the code-host App installations and the repositories each grants, stores them, and associates the caller with every ' +
      'synced installation, which makes its repositories available to `GET /projects/{id}/repos/available` and linkable with ' +
      '`POST /projects/{id}/repos`. The `vcs` path segment stands for the code-host name: `/vcs/installations/sync` and ' +
      '`/github/installations/sync` are the same operation. Users of this API have no code-host identity, so the installations ' +
      "associated with a caller are those of this deployment's App: without `installation_ids` every installation of the App is " +
      'synced (installations that disappeared are marked `deleted` and no longer offer repositories); with `installation_ids` ' +
      'only those (at most 100), and an id the App does not have answers 404 with nothing synced. A suspended installation is ' +
      'listed with status `suspended` and its repositories are not offered. Repositories an installation no longer grants stop ' +
      'being available (links already made stay). Without App credentials the call answers 503.',
    tag: TAG,
    body: api.SyncInstallationsBody,
    bodyOptional: true,
    status: 200,
    response: z.array(api.InstallationSchema),
    errors: [404, 503],
    handler: ({ services, actor, body }) => services.installations.sync(actor, body),
  });

export const repositoryRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/repos',
    operationId: 'listRepositories',
    summary: 'Repositories linked to the project (not paginated), in the order they were linked',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 200,
    response: z.array(api.RepositorySchema),
    handler: ({ services, actor, params }) => services.repositories.list(actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/repos',
    operationId: 'linkRepositories',
    summary: 'Link repositories synced from code-host installations',
    description:
      'Give exactly one of `repository_id` or `repository_ids` (1 to 100 ids; duplicates count once). Every repository must have ' +
      'been synced from an active installation the caller is associated with (`POST /vcs/installations/sync`); otherwise the call ' +
      'answers 404 naming the ids and links nothing (public or local repositories are linked with `add-public`). `linked` is the ' +
      'number of repositories linked; one onboarding session covers them all. ' +
      ONBOARDING,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    body: api.LinkRepositoriesBody,
    status: 201,
    response: api.LinkRepositoriesResponse,
    errors: [404, 409, 503],
    handler: ({ services, actor, params, body }) => services.repositories.link(actor, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/repos/add-public',
    operationId: 'addPublicRepository',
    summary: 'Link a public repository by URL or by owner and name',
    description:
      'Give either `url`, or `owner` and `name`. Accepted URLs: `https://github.com/<owner>/<name>` (optionally ending in `.git` ' +
      "or `/`), with GitHub's owner and name characters, no credentials, port, query or fragment; any other scheme or host answers " +
      '400. `owner` and `name` always denote a GitHub repository. The repository is looked up at GitHub: 404 when it does not ' +
      'exist, 400 when it is private (install the App on it and link it by id instead). In embedded mode (or with ' +
      'CODEHEALTH_ALLOW_LOCAL_REPOS=1) `file:///absolute/path` of a local git repository is accepted too; the path must be the root ' +
      'of a repository (working tree or bare) with at least one commit; its owner is the parent directory name, its name the ' +
      'directory name, its default branch the branch HEAD names, and its pull requests are the refs `refs/pull/<N>/head`. ' +
      'A repository already known to the service (same code host and URL, or same code-host id) reuses its record. ' +
      ONBOARDING,
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    body: api.AddPublicRepositoryBody,
    status: 201,
    response: api.AddPublicRepositoryResponse,
    errors: [404, 409, 503],
    handler: ({ services, actor, params, body }) => services.repositories.addPublic(actor, params.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/repos/available',
    operationId: 'listAvailableRepositories',
    summary: "Repositories of the caller's code-host installations not yet linked to the project",
    description:
      'Repositories synced from active installations the caller is associated with (see `POST /vcs/installations/sync`), minus ' +
      'those linked to this project; sorted by `full_name`, not paginated.',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 200,
    response: z.array(api.RepositorySchema),
    handler: ({ services, actor, params }) => services.repositories.available(actor, params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{id}/repos/{repoId}',
    operationId: 'unlinkRepository',
    summary: 'Unlink a repository; its assessments, issues and PR analyses are kept',
    description: 'Any project member may unlink. 404 when the repository is not linked to the project.',
    tag: TAG,
    access: 'member',
    params: projectParamsWith('repoId'),
    status: 204,
    errors: [404],
    handler: ({ services, actor, params }) => services.repositories.unlink(actor, params.id, params.repoId),
  }),
  syncInstallations('/vcs/installations/sync', 'syncInstallations', 'Sync code-host App installations and their repositories'),
  syncInstallations('/github/installations/sync', 'syncGitHubInstallations', 'Sync GitHub App installations (same as /vcs/installations/sync)'),
];
