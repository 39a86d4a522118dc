// Inbound code-host webhooks (spec section 6) at the root path `POST /webhooks/github`: the
// signature is checked over the exact bytes received, then the engine's WebhookService acts.
import { createHash } from 'node:crypto';
import { api, WEBHOOK_REPLAY_WINDOW_DAYS } from '@codehealth/service';
import { verify } from '@octokit/webhooks-methods';
import type { H3Event } from 'h3';
import { ApiError } from '../http-errors.js';
import { MAX_BODY_BYTES, readLimited } from '../request.js';
import { defineRoute } from '../route.js';

const TAG = 'Webhooks';
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;
const EVENT_NAME = /^[a-z_]{1,100}$/;

const DESCRIPTION = `Receives the GitHub App's webhook deliveries (root path, no API key: set the App's webhook URL
to \`{base_url}/webhooks/github\` and its secret to \`VCS_WEBHOOK_SECRET\`).

**Verification.** \`X-Hub-Signature-256\` must be the HMAC-SHA256 of the exact body with
\`VCS_WEBHOOK_SECRET\`, compared in constant time; a missing or wrong signature is 401
\`{"error":"invalid signature"}\` and nothing is recorded. Such refusals count against the sender's address like
other requests without valid credentials (over the limit, 120 a minute by default: 429 with \`Retry-After\`); a
correctly signed delivery never counts and is never limited. Without a configured secret every delivery is 503.
Bodies are JSON (\`application/json\`) or GitHub's form encoding (\`payload=<json>\`), at most 1 MB (413 beyond:
GitHub caps payloads at 25 MB, but pull-request, push and installation events stay far below 1 MB).
\`X-GitHub-Delivery\` and \`X-GitHub-Event\` are required (400).

**Idempotency and replays.** A delivery that changed anything is recorded under its \`X-GitHub-Delivery\` id and the
SHA-256 of its exact body, in the same transaction as its store effects. The same id again answers
\`{"status":"duplicate"}\` and does nothing; so does the same body under another id within ${WEBHOOK_REPLAY_WINDOW_DAYS} days (the
signature covers only the body: a captured delivery re-sent with a new id is a replay, and GitHub never sends two
events with identical bodies). When a run cannot be started (workflow engine unavailable, 503) the record is removed
again, so GitHub's redelivery processes it anew (store effects are upserts; runs coalesce with those already started).

**U+0000.** GitHub passes a NUL inside a string through (a commit message, a title); the store cannot hold one, so
the payload is read with U+FFFD in place of each, and the answer lists the places in a \`nul_replaced\` action.

**Events.** The repository is found by GitHub id, else by full name; runs start for every project it is linked to.
- \`pull_request\` \`opened\`, \`synchronize\`, \`reopened\`: the pull request is stored from the payload and a PR analysis
  of its head commit starts (an analysis of the same head is reused). \`edited\` and \`closed\` refresh the stored pull
  request; \`closed\` with \`merged: true\` into the default branch also queues an assessment with \`trigger_type\`
  \`pr_merge\`.
- \`push\` to the default branch (\`refs/heads/<default_branch>\`) queues an assessment with \`trigger_type\` \`push\`;
  other branches, tags and branch deletions are ignored.
- \`installation\` \`created\`, \`new_permissions_accepted\`, \`suspend\`, \`unsuspend\`, \`deleted\` and
  \`installation_repositories\` \`added\`/\`removed\` update the installation's status and attach or detach its
  repositories. Granted repositories the service does not know are fetched from GitHub when the App's
  credentials are configured, else listed in \`unknown_full_names\` and stored by the next installation sync;
  users still sync an installation (\`POST /vcs/installations/sync\`) to see its repositories as available.
- \`ping\` answers \`{"status":"pong"}\`. Other events and actions, and repositories the service does not know
  (or, for pushes, that no project links), answer \`{"status":"ignored","reason":...}\` and are not recorded.

**Answer.** \`{"status":"processed","event":...,"actions":[...]}\` where each action names one effect:
\`pull_request_updated\`, \`pr_analysis\`, \`health_assessment\` (\`created: false\` when one under way was reused),
\`project_skipped\` (e.g. unlinked meanwhile), \`installation_updated\`, \`repositories_attached\`,
\`repositories_detached\`, \`nul_replaced\`.`;

/** The JSON text of the delivery: the body itself, or the `payload` field of a form-encoded body. */
function payloadText(event: H3Event, body: string): string {
  const type = (event.req.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(body).get('payload');
    if (payload === null) throw new ApiError(400, 'form-encoded webhook body has no payload field');
    return payload;
  }
  if (type && !/^application\/(.+\+)?json\b/.test(type)) {
    throw new ApiError(415, 'webhook body must be application/json or application/x-www-form-urlencoded');
  }
  return body;
}

function requiredHeader(event: H3Event, name: string, pattern: RegExp): string {
  const value = event.req.headers.get(name);
  if (!value) throw new ApiError(400, `missing ${name} header`);
  if (!pattern.test(value)) throw new ApiError(400, `invalid ${name} header`);
  return value;
}

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: '/webhooks/github',
    root: true,
    auth: 'signature',
    operationId: 'receiveGitHubWebhook',
    summary: 'GitHub webhook deliveries (signed with VCS_WEBHOOK_SECRET): PR analyses, push and merge assessments, installations',
    description: DESCRIPTION,
    tag: TAG,
    status: 200,
    response: api.WebhookResponseSchema,
    errors: [401, 413, 415, 503],
    handler: async ({ event, services, app }) => {
      const secret = app.webhookSecret;
      if (!secret) throw new ApiError(503, 'webhooks are not configured (set VCS_WEBHOOK_SECRET)');
      const signature = event.req.headers.get('x-hub-signature-256');
      if (!signature) throw new ApiError(401, 'invalid signature');
      const body = await readLimited(event, MAX_BODY_BYTES);
      // verify() throws on an empty body; an empty body is never a signed GitHub delivery.
      if (body === '' || !(await verify(secret, body, signature))) throw new ApiError(401, 'invalid signature');
      const id = requiredHeader(event, 'x-github-delivery', DELIVERY_ID);
      const name = requiredHeader(event, 'x-github-event', EVENT_NAME);
      let payload: unknown;
      try {
        payload = JSON.parse(payloadText(event, body));
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError(400, 'webhook payload is not valid JSON');
      }
      const bodySha256 = createHash('sha256').update(body).digest('hex');
      return services.webhooks.receiveGitHub({ id, event: name, bodySha256, payload });
    },
  }),
];
