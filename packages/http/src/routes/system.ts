// Root-path health checks and the OpenAPI document.
import { z } from 'zod';
import { ApiError } from '../http-errors.js';
import { buildOpenApiDocument } from '../openapi.js';
import { defineRoute, type AppContext } from '../route.js';

const TAG = 'System';
const CHECK_TIMEOUT_MS = 3_000;

const ComponentStatus = z
  .object({
    name: z.string(),
    status: z.enum(['up', 'down']),
    latency_ms: z.number(),
    error: z.string().optional(),
  })
  .meta({ id: 'ComponentStatus' });

const DetailedHealth = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    uptime_seconds: z.number(),
    components: z.array(ComponentStatus),
  })
  .meta({ id: 'DetailedHealth' });

async function checkAll(app: AppContext): Promise<z.infer<typeof ComponentStatus>[]> {
  return Promise.all(
    app.components.map(async (component) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          component.check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
          }),
        ]);
        return { name: component.name, status: 'up' as const, latency_ms: Math.round(performance.now() - started) };
      } catch (error) {
        // The message names the failure (refused, timeout), never a connection string.
        const message = error instanceof Error ? error.message.replace(/\w+:\/\/\S+/g, '<url>') : 'failed';
        return { name: component.name, status: 'down' as const, latency_ms: Math.round(performance.now() - started), error: message };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

export const systemRoutes = [
  defineRoute({
    method: 'GET',
    path: '/healthz',
    root: true,
    auth: 'none',
    operationId: 'healthz',
    summary: 'Liveness and readiness: 200 only when every configured service answers, else 503',
    tag: TAG,
    status: 200,
    response: z.object({ status: z.literal('ok') }).meta({ id: 'Healthz' }),
    errors: [503],
    handler: async ({ app }) => {
      const down = (await checkAll(app)).filter((component) => component.status === 'down');
      if (down.length > 0) throw new ApiError(503, `unavailable: ${down.map((c) => c.name).join(', ')}`);
      return { status: 'ok' as const };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/health/detailed',
    root: true,
    auth: 'none',
    operationId: 'healthDetailed',
    summary: 'Status and latency of each component (database, cache, graph store, workflow engine, ...)',
    tag: TAG,
    status: 200,
    response: DetailedHealth,
    handler: async ({ app }) => {
      const components = await checkAll(app);
      return {
        status: components.every((c) => c.status === 'up') ? ('ok' as const) : ('degraded' as const),
        version: app.version,
        uptime_seconds: Math.round((Date.now() - app.startedAt.getTime()) / 1000),
        components,
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    operationId: 'getOpenApiDocument',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: TAG,
    status: 200,
    response: z.record(z.string(), z.unknown()),
    handler: ({ app }) => buildOpenApiDocument(app.routes, { version: app.version }),
  }),
];
