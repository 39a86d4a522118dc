// The h3 application: mounts the route table with authentication, access checks, validation and
// the one error mapping; unknown paths and methods get JSON errors too.
import { H3, handleCors, type H3Event } from 'h3';
import type { Services } from '@codehealth/engine/server';
import { authenticate, type BearerAuthenticator } from './auth.js';
import { ApiError, errorResponse, jsonResponse, toErrorResponse } from './http-errors.js';
import { DEFAULT_RATE_LIMIT, enforceRateLimit, type RateLimit } from './rate-limit.js';
import { readHeaders, readJsonBody, readParams, readQuery } from './request.js';
import { fullPathOf, toRouterPath, type AppContext, type HealthComponent, type RouteDefinition } from './route.js';
import { ALL_ROUTES } from './routes/index.js';

export interface AppOptions {
  services: Services;
  routes?: readonly RouteDefinition[];
  /** Allowed CORS origins (`CORS_ORIGINS`, comma-separated); `*` allows any. */
  corsOrigins?: readonly string[];
  components?: readonly HealthComponent[];
  authenticators?: readonly BearerAuthenticator[];
  /** Checks every response against its schema (tests); a mismatch is a 500 naming the route. */
  validateResponses?: boolean;
  /** One line per request (method, path, status, ms) and internal errors; never headers or bodies. */
  log?: (line: string) => void;
  version?: string;
  /** `VCS_WEBHOOK_SECRET`, for `POST /webhooks/github`. */
  webhookSecret?: string;
  /** Requests per caller and window, counted in `services.cache`; false: unlimited. Default DEFAULT_RATE_LIMIT. */
  rateLimit?: RateLimit | false;
}

async function dispatch(route: RouteDefinition, event: H3Event, options: AppOptions, app: AppContext): Promise<Response> {
  const actor = route.auth === 'none' ? undefined : await authenticate(event, options.services, options.authenticators);
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const limitHeaders = actor && limit ? await enforceRateLimit(options.services.cache, actor, limit) : {};
  const params = route.params ? readParams(event.context.params ?? {}, route.params) : {};
  if (actor && route.access) await options.services.access.require(actor, (params as { id: string }).id, route.access);
  const query = route.query ? readQuery(event, route.query) : {};
  const headers = route.headers ? readHeaders(event, route.headers) : {};
  const body = route.body ? await readJsonBody(event, route.body, route.bodyOptional ?? false) : undefined;
  const result = await route.handler({ event, services: options.services, app, actor: actor!, params, query, headers, body } as never);
  // A successful write to a project (dismiss, restore, rules, settings, links...) changes its aggregates.
  const projectId = (params as { id?: string }).id;
  if (route.method !== 'GET' && route.access && projectId) await options.services.projectCache.invalidate(projectId);
  if (route.raw) return withHeaders(result as Response, limitHeaders);
  if (options.validateResponses && route.response) {
    const checked = route.response.safeParse(result);
    if (!checked.success) {
      throw new Error(`response of ${route.operationId} does not match its schema: ${JSON.stringify(checked.error.issues.slice(0, 3))}`);
    }
  }
  return withHeaders(jsonResponse(route.status, route.status === 204 ? null : result), limitHeaders);
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export function createApp(options: AppOptions): H3 {
  const log = options.log ?? (() => {});
  const routes = options.routes ?? ALL_ROUTES;
  const app: AppContext = {
    components: options.components ?? [],
    startedAt: new Date(),
    version: options.version ?? '0.0.0',
    routes,
    webhookSecret: options.webhookSecret || undefined,
  };
  const cors = options.corsOrigins && options.corsOrigins.length > 0 ? options.corsOrigins : undefined;

  const h3 = new H3({
    onError: (error) => errorResponse(toErrorResponse(error)),
  });

  if (cors) {
    h3.use((event, next) => {
      const preflight = handleCors(event, {
        origin: cors.includes('*') ? '*' : [...cors],
        methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
        allowHeaders: ['authorization', 'content-type'],
        maxAge: '600',
      });
      return preflight === false ? next() : preflight;
    });
  }

  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const path = toRouterPath(fullPathOf(route));
    methodsByPath.set(path, (methodsByPath.get(path) ?? new Set()).add(route.method));
    h3.on(route.method, path, async (event) => {
      const started = performance.now();
      let response: Response;
      try {
        response = await dispatch(route, event, options, app);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.internal) log(`error ${route.operationId}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        response = errorResponse(mapped);
      }
      log(`${event.req.method} ${event.url.pathname} ${response.status} ${Math.round(performance.now() - started)}ms`);
      return response;
    });
  }

  // Known path, other method → 405 with Allow; unknown path → 404. Both as JSON errors.
  for (const [path, methods] of methodsByPath) {
    h3.on('', path, (event) => {
      if (event.req.method === 'OPTIONS' || event.req.method === 'HEAD') return new Response(null, { status: 204, headers: { allow: [...methods].join(', ') } });
      return errorResponse({ status: 405, message: `method ${event.req.method} is not allowed here`, headers: { allow: [...methods].join(', ') }, internal: false });
    });
  }
  h3.on('', '/**', (event) => errorResponse(toErrorResponse(new ApiError(404, `not found: ${event.req.method} ${event.url.pathname}`))));
  return h3;
}
