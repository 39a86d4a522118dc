// A loopback HTTP server speaking GitHub's REST protocol with recorded real payloads (see
// test/fixtures/github/README.md): repositories, App installations with JWT and installation-
// token authentication checked like GitHub does, installation repositories and pull requests.
// Tests point the GitHub code host's `baseUrl` at it; nothing of ours is stubbed.
import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
type Json = Record<string, any>;
interface WebhookEvent {
  name: string;
  examples: Json[];
}
const webhookEvents = require('@octokit/webhooks-examples') as WebhookEvent[];
const examplesOf = (name: string): Json[] => webhookEvents.find((event) => event.name === name)!.examples;

const recordedGetRepository = JSON.parse(readFileSync(new URL('../fixtures/github/get-repository.json', import.meta.url), 'utf8')) as {
  path: string;
  status: number;
  headers: Record<string, string | number>;
  response: Json;
};

/** Recorded payloads by what they are. */
export const recorded = {
  /** octokit-fixture-org/hello-world, public (@octokit/fixtures get-repository). */
  publicRepository: recordedGetRepository.response,
  /** octo-org/octo-repo, private (branch_protection_rule.edited). */
  privateRepository: examplesOf('branch_protection_rule').find((e) => e.repository.full_name === 'octo-org/octo-repo' && e.repository.private)!.repository,
  /** Codertocat/Hello-World, public (check_run.created). */
  installedPublic: examplesOf('check_run').find((e) => e.repository.full_name === 'Codertocat/Hello-World')!.repository,
  /** Codertocat/hello-world-npm, private (package.published). */
  installedPrivate: examplesOf('package').find((e) => e.repository.full_name === 'Codertocat/hello-world-npm')!.repository,
  /** Installation 957387 of Codertocat (a user), active (installation.created). */
  activeInstallation: examplesOf('installation').find((e) => e.action === 'created')!.installation,
  /** Installation 16598467 of Codertocat, suspended (installation.suspend). */
  suspendedInstallation: examplesOf('installation').find((e) => e.action === 'suspend')!.installation,
  /** Pull request #2 of Codertocat/Hello-World, open (pull_request.opened). */
  openPullRequest: examplesOf('pull_request').find((e) => e.action === 'opened')!.pull_request,
  /** A check run of Codertocat/Hello-World (check_run.created): the shape POST/PATCH …/check-runs answer. */
  checkRun: examplesOf('check_run').find((e) => e.action === 'created' && e.repository.full_name === 'Codertocat/Hello-World')!.check_run,
  /** A comment on an issue of Codertocat/Hello-World (issue_comment.created): the shape of …/issues/{n}/comments. */
  issueComment: examplesOf('issue_comment').find((e) => e.action === 'created')!.comment,
};

/** One request with its JSON body, for assertions on exactly what was sent (`requests` omits bodies). */
export interface FakeGitHubExchange {
  method: string;
  path: string;
  body: Json | undefined;
}

/** An answer the fake gives instead of routing (rate limits, outages, a revoked installation). */
export interface FakeGitHubFailure {
  status: number;
  headers?: Record<string, string>;
  body?: Json;
}

export interface FakeGitHubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface FakeGitHub {
  baseUrl: string;
  appId: number;
  /** PEM (PKCS#1, the format GitHub hands out) of the App's private key. */
  privateKey: string;
  requests: FakeGitHubRequest[];
  /** Installations the App has (mutable between calls). */
  installations: Json[];
  /** Repositories each installation grants (mutable between calls). */
  repositoriesByInstallation: Map<number, Json[]>;
  /** Repositories answering `GET /repos/{owner}/{repo}`, by lower-case full name. */
  repositories: Map<string, Json>;
  /** Open pull requests by lower-case repository full name. */
  pulls: Map<string, Json[]>;
  /** Commits of a pull request (`GET …/pulls/{n}/commits`) by `<lower-case full name>#<n>`; a PR not in it answers 404. */
  pullCommits: Map<string, Json[]>;
  /** When set, every call answers GitHub's rate-limit 403. */
  rateLimited: boolean;
  /** Requests with their bodies, in order. */
  exchanges: FakeGitHubExchange[];
  /** Answered, one each, by the next requests to check-run and comment routes (then routing resumes). */
  failures: FakeGitHubFailure[];
  /** Check runs by id (as GitHub keeps them: name, head_sha, status, conclusion, output), with their annotations. */
  checkRuns: Map<number, Json & { annotations: Json[] }>;
  /** Conversation comments by `<lower-case full name>#<n>`, oldest first. */
  comments: Map<string, Json[]>;
  close(): Promise<void>;
}

const notFound = (documentation: string): [number, Json] => [404, { message: 'Not Found', documentation_url: documentation, status: '404' }];

function verifyAppJwt(authorization: string | undefined, publicKey: string, appId: number): boolean {
  const match = /^bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const [, header, payload, signature] = match;
  const valid = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature!, 'base64url'));
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { iss?: unknown; exp?: number };
  return valid && String(claims.iss) === String(appId) && (claims.exp ?? 0) * 1000 > Date.now();
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const appId = recorded.activeInstallation.app_id as number;
  const tokens = new Map<string, number>();
  const fake: FakeGitHub = {
    baseUrl: '',
    close: async () => {},
    appId,
    privateKey,
    requests: [],
    installations: [recorded.activeInstallation, recorded.suspendedInstallation],
    repositoriesByInstallation: new Map([[recorded.activeInstallation.id as number, [recorded.installedPublic, recorded.installedPrivate]]]),
    repositories: new Map(
      [recorded.publicRepository, recorded.privateRepository, recorded.installedPublic].map((repo) => [String(repo.full_name).toLowerCase(), repo]),
    ),
    pulls: new Map([['codertocat/hello-world', [recorded.openPullRequest]]]),
    pullCommits: new Map(),
    rateLimited: false,
    exchanges: [],
    failures: [],
    checkRuns: new Map(),
    comments: new Map(),
  };
  let nextId = 4_000_000_000;

  /** Check runs and comments need an installation token of an installation granting the repository, as on GitHub. */
  function installationOf(authorization: string | undefined, fullName: string): number | undefined {
    const installationId = tokens.get((authorization ?? '').replace(/^token /i, ''));
    if (installationId === undefined) return undefined;
    const granted = fake.repositoriesByInstallation.get(installationId) ?? [];
    return granted.some((repo) => String(repo.full_name).toLowerCase() === fullName) ? installationId : undefined;
  }

  function checkRunOf(run: Json & { annotations: Json[] }): Json {
    const { annotations, ...rest } = run;
    return { ...rest, output: { ...rest.output, annotations_count: annotations.length } };
  }

  /** Check runs and issue comments, as GitHub's REST reference describes them; undefined for other paths. */
  function feedbackRoute(
    method: string,
    url: URL,
    authorization: string | undefined,
    body: Json | undefined,
  ): [number, Json | Json[], Record<string, string>?] | undefined {
    const match =
      /^\/repos\/([^/]+)\/([^/]+)\/(check-runs(?:\/(\d+))?|commits\/([0-9a-f]{40})\/check-runs|issues\/(\d+)\/comments|issues\/comments\/(\d+))$/.exec(
        url.pathname,
      );
    if (!match) return undefined;
    const failure = fake.failures.shift();
    if (failure) return [failure.status, failure.body ?? { message: 'failure', documentation_url: 'https://docs.github.com/rest' }, failure.headers];
    const fullName = `${match[1]}/${match[2]}`.toLowerCase();
    if (installationOf(authorization, fullName) === undefined) return notFound('https://docs.github.com/rest');
    const [, , , , checkRunId, ref, issueNumber, commentId] = match;
    const tooMany = (annotations: unknown) =>
      Array.isArray(annotations) && annotations.length > 50
        ? ([
            422,
            { message: 'Invalid request.\n\nOnly 50 annotations are allowed per request.', documentation_url: 'https://docs.github.com/rest/checks/runs' },
          ] as [number, Json])
        : undefined;
    if (method === 'GET' && ref) {
      const runs = [...fake.checkRuns.values()]
        .filter((run) => run.head_sha === ref && (!url.searchParams.get('check_name') || run.name === url.searchParams.get('check_name')))
        .reverse();
      return [200, { total_count: runs.length, check_runs: runs.map(checkRunOf) }];
    }
    if (method === 'POST' && match[3] === 'check-runs') {
      if (typeof body?.name !== 'string' || typeof body?.head_sha !== 'string')
        return [422, { message: 'Invalid request.', documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run' }];
      const refused = tooMany(body.output?.annotations);
      if (refused) return refused;
      const id = nextId++;
      const run = {
        ...recorded.checkRun,
        id,
        name: body.name,
        head_sha: body.head_sha,
        external_id: body.external_id ?? '',
        status: body.status ?? 'queued',
        conclusion: body.conclusion ?? null,
        output: { title: body.output?.title ?? null, summary: body.output?.summary ?? null, text: null },
        annotations: [...(body.output?.annotations ?? [])],
      };
      fake.checkRuns.set(id, run);
      return [201, checkRunOf(run)];
    }
    if (method === 'PATCH' && checkRunId) {
      const run = fake.checkRuns.get(Number(checkRunId));
      if (!run) return notFound('https://docs.github.com/rest/checks/runs#update-a-check-run');
      const refused = tooMany(body?.output?.annotations);
      if (refused) return refused;
      for (const key of ['status', 'conclusion', 'external_id'] as const) if (body?.[key] !== undefined) run[key] = body[key];
      if (body?.output) {
        run.output = { ...run.output, title: body.output.title, summary: body.output.summary };
        run.annotations.push(...(body.output.annotations ?? []));
      }
      return [200, checkRunOf(run)];
    }
    return commentRoute(method, url, fullName, issueNumber, commentId, body);
  }

  /** A PR's conversation comments: paginated listing, create, update. */
  function commentRoute(
    method: string,
    url: URL,
    fullName: string,
    issueNumber: string | undefined,
    commentId: string | undefined,
    body: Json | undefined,
  ): [number, Json | Json[], Record<string, string>?] {
    if (issueNumber) {
      const key = `${fullName}#${issueNumber}`;
      const comments = fake.comments.get(key) ?? [];
      if (method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        const headers: Record<string, string> = {};
        if (page * perPage < comments.length) {
          const next = new URL(url);
          next.searchParams.set('page', String(page + 1));
          headers.link = `<${fake.baseUrl}${next.pathname}${next.search}>; rel="next"`;
        }
        return [200, comments.slice((page - 1) * perPage, page * perPage), headers];
      }
      if (method === 'POST') {
        const comment = { ...recorded.issueComment, id: nextId++, body: body?.body };
        fake.comments.set(key, [...comments, comment]);
        return [201, comment];
      }
    }
    if (method === 'PATCH' && commentId) {
      for (const comments of fake.comments.values()) {
        const comment = comments.find((candidate) => candidate.id === Number(commentId));
        if (comment) {
          comment.body = body?.body;
          return [200, comment];
        }
      }
      return notFound('https://docs.github.com/rest/issues/comments#update-an-issue-comment');
    }
    return notFound('https://docs.github.com/rest');
  }

  function route(method: string, path: string, authorization: string | undefined, body?: Json): [number, Json | Json[], Record<string, string>?] {
    if (fake.rateLimited) {
      const reset = String(Math.floor(Date.now() / 1000) + 600);
      return [
        403,
        {
          message: 'API rate limit exceeded for 127.0.0.1.',
          documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
        },
        { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      ];
    }
    const url = new URL(path, 'http://fake');
    const feedback = feedbackRoute(method, url, authorization, body);
    if (feedback) return feedback;
    let match: RegExpExecArray | null;
    if (method === 'GET' && url.pathname === '/app/installations') {
      if (!verifyAppJwt(authorization, publicKey, appId))
        return [401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' }];
      return [200, fake.installations];
    }
    if (method === 'POST' && (match = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname))) {
      if (!verifyAppJwt(authorization, publicKey, appId))
        return [401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' }];
      const installation = fake.installations.find((candidate) => String(candidate.id) === match![1]);
      if (!installation) return notFound('https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app');
      if (installation.suspended_at)
        return [
          403,
          {
            message: 'This installation has been suspended',
            documentation_url: 'https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app',
          },
        ];
      const token = `ghs_${randomBytes(18).toString('base64url')}`;
      tokens.set(token, installation.id as number);
      return [
        201,
        {
          token,
          expires_at: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
          permissions: installation.permissions,
          repository_selection: installation.repository_selection,
        },
      ];
    }
    if (method === 'GET' && url.pathname === '/installation/repositories') {
      const installationId = tokens.get((authorization ?? '').replace(/^token /i, ''));
      if (installationId === undefined) return [401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }];
      const repositories = fake.repositoriesByInstallation.get(installationId) ?? [];
      return [200, { total_count: repositories.length, repository_selection: 'selected', repositories }];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(url.pathname))) {
      const fullName = `${match[1]}/${match[2]}`.toLowerCase();
      if (!fake.repositories.has(fullName)) return notFound('https://docs.github.com/rest/pulls/pulls#list-pull-requests');
      return [200, (fake.pulls.get(fullName) ?? []).filter((pull) => url.searchParams.get('state') !== 'open' || pull.state === 'open')];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/commits$/.exec(url.pathname))) {
      const commits = fake.pullCommits.get(`${match[1]}/${match[2]}`.toLowerCase() + `#${match[3]}`);
      if (!commits) return notFound('https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request');
      return [200, commits];
    }
    if (method === 'GET' && (match = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname))) {
      const repo = fake.repositories.get(`${match[1]}/${match[2]}`.toLowerCase());
      // Anonymous callers get 404 for private repositories, like GitHub; with a token they see them.
      if (!repo || (repo.private && !authorization)) return notFound('https://docs.github.com/rest/repos/repos#get-a-repository');
      return [200, repo];
    }
    return notFound('https://docs.github.com/rest');
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const authorization = req.headers.authorization;
      const text = Buffer.concat(chunks).toString('utf8');
      const sent = text ? (JSON.parse(text) as Json) : undefined;
      fake.requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', authorization });
      fake.exchanges.push({ method: req.method ?? 'GET', path: req.url ?? '/', body: sent });
      const [status, body, headers = {}] = route(req.method ?? 'GET', req.url ?? '/', authorization, sent);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-media-type': 'github.v3; format=json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
