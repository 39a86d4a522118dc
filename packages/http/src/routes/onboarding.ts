// Onboarding progress as server-sent events (spec section 6; the path is ours:
// GET /api/v1/onboarding/{onboarding_session_id}/events). History first, then live events; the
// stream ends after the final `completed` or `failed` event. `Last-Event-ID` resumes.
import { api, FINAL_ONBOARDING_EVENTS, type OnboardingEventRecord, type Services } from '@codehealth/service';
import { z } from 'zod';
import { uuidParam } from '../params.js';
import { defineRoute } from '../route.js';

const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;

const DESCRIPTION = `Server-sent events (text/event-stream) of one onboarding session; the caller needs access to its project.
Each event: \`id\` = sequence number (1, 2, ...), \`event\` = type, \`data\` = JSON
\`{seq, type, step?, percent, message?, detail?, created_at}\`.
Types: \`step_started\`, \`step_finished\`, \`step_failed\` (steps: \`clone\`, \`detect_analyzers\`, \`initial_assessment\`,
\`architecture_documentation\`), \`progress\`, and the final \`completed\` or \`failed\`, after which the server closes the
stream. Late subscribers receive the whole history first; send \`Last-Event-ID\` to resume after an event.
A \`Last-Event-ID\` that is not a whole number from 0 to 2147483647 in decimal digits is 400.
A session created with \`skip_onboarding\` is already \`completed\`: its stream sends one \`completed\` event.
Comment lines (\`: keep-alive\`) are sent every 15 s. Example: \`curl -N -H "Authorization: Bearer $KEY" $URL/api/v1/onboarding/$ID/events\`.`;

function frame(event: OnboardingEventRecord): string {
  const data = JSON.stringify({ seq: event.seq, type: event.type, ...event.data, created_at: event.created_at });
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${data}\n\n`;
}

function eventStream(services: Services, sessionId: string, afterSeq: number, sessionStatus: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = afterSeq;
      let closed = false;
      const timers: NodeJS.Timeout[] = [];
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      const send = (event: OnboardingEventRecord) => {
        if (closed || event.seq <= last) return;
        last = event.seq;
        controller.enqueue(encoder.encode(frame(event)));
        if (FINAL_ONBOARDING_EVENTS.includes(event.type)) close();
      };
      const unsubscribe = services.onboarding.subscribe(sessionId, send);
      const catchUp = async () => {
        for (const event of await services.onboarding.events(sessionId, last)) send(event);
      };
      cleanup = () => {
        unsubscribe();
        timers.forEach(clearInterval);
      };
      try {
        await catchUp();
        if (!closed && (sessionStatus === 'completed' || sessionStatus === 'failed') && last === afterSeq) {
          // Finished without events (skip_onboarding): say so once.
          send({ seq: last + 1, type: sessionStatus as 'completed' | 'failed', data: { percent: 100 }, created_at: new Date().toISOString() });
        }
      } catch (error) {
        controller.error(error);
        cleanup();
        return;
      }
      if (closed) return;
      timers.push(setInterval(() => void catchUp().catch(() => close()), POLL_MS));
      timers.push(setInterval(() => !closed && controller.enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS));
    },
    cancel() {
      cleanup();
    },
  });
}

export const onboardingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/onboarding/{sessionId}/events',
    operationId: 'streamOnboardingEvents',
    summary: 'Progress of an onboarding session as server-sent events',
    description: DESCRIPTION,
    tag: 'Repositories',
    params: z.object({ sessionId: uuidParam('sessionId') }),
    headers: z.object({
      'Last-Event-ID': api
        .decimalInteger('Last-Event-ID', 0, api.MAX_INT32)
        .optional()
        .meta({ description: 'resume after this event (its `id`, a sequence number); anything else is 400' }),
    }),
    status: 200,
    raw: true,
    responseContentType: 'text/event-stream',
    errors: [403, 404],
    handler: async ({ services, actor, params, headers }) => {
      const session = await services.onboarding.get(actor, params.sessionId);
      return new Response(eventStream(services, params.sessionId, headers['Last-Event-ID'] ?? 0, session.status), {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' },
      });
    },
  }),
];
