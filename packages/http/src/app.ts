// The h3 application: mounts the route table with authentication, rate limits (per key; per client
// address for requests without valid credentials), access checks, validation and the one error
// mapping; unknown paths and methods get JSON errors too.
import { H3, handleCors, type H3Event } from 'h3';
import type { Services } from '@codehealth/service';
import { authenticate, type BearerAuthenticator } from './auth.js';
import { ApiError, errorResponse, jsonResponse, toErrorResponse } from './http-errors.js';
import type { TrustedProxies } from './client-address.js';
import { createRateLimiter, DEFAULT_RATE_LIMIT, DEFAULT_UNAUTHENTICATED_RATE_LIMIT, type RateLimit, type RateLimiter } from './rate-limit.js';
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
  /**
   * Requests without valid credentials per client address and window (public routes, failed
   * authentications and webhook signatures, unknown paths); false: unlimited. Default
   * DEFAULT_UNAUTHENTICATED_RATE_LIMIT.
   */
  unauthenticatedRateLimit?: RateLimit | false;
  /** `TRUSTED_PROXIES`: reverse proxies whose X-Forwarded-For names the client address. */
  trustedProxies?: TrustedProxies;
}

/**
 * Runs `attempt`; when it refuses the caller's credentials (401), the refusal counts against the
 * client address and turns into 429 over the limit.
 */
async function countingRefusals<T>(limiter: RateLimiter, event: H3Event, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    const headers = await limiter.unauthenticated(event);
    throw new ApiError(401, error.message, { ...error.headers, ...headers });
  }
}

async function dispatch(route: RouteDefinition, event: H3Event, options: AppOptions, app: AppContext, limiter: RateLimiter): Promise<Response> {
  let actor;
  let limitHeaders: Record<string, string> = {};
  if (route.auth === 'none') limitHeaders = await limiter.unauthenticated(event);
  else if (route.auth !== 'signature') {
    actor = await countingRefusals(limiter, event, () => authenticate(event, options.services, options.authenticators));
    limitHeaders = await limiter.authenticated(actor);
  }
  const params = route.params ? readParams(event.context.params ?? {}, route.params) : {};
  if (actor && route.access) await options.services.access.require(actor, (params as { id: string }).id, route.access);
  const query = route.query ? readQuery(event, route.query) : {};
  const headers = route.headers ? readHeaders(event, route.headers) : {};
  const body = route.body ? await readJsonBody(event, route.body, route.bodyOptional ?? false) : undefined;
  const run = async () => route.handler({ event, services: options.services, app, actor: actor!, params, query, headers, body } as never);
  // A route that checks a signature itself counts only the requests it refuses.
  const result = route.auth === 'signature' ? await countingRefusals(limiter, event, run) : await run();
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
  const limiter = createRateLimiter(options.services.cache, {
    perKey: options.rateLimit ?? DEFAULT_RATE_LIMIT,
    perAddress: options.unauthenticatedRateLimit ?? DEFAULT_UNAUTHENTICATED_RATE_LIMIT,
    trustedProxies: options.trustedProxies,
  });

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
        response = await dispatch(route, event, options, app, limiter);
      } catch (error) {
        const mapped = toErrorResponse(error);
        if (mapped.internal) log(`error ${route.operationId}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        response = errorResponse(mapped);
      }
      log(`${event.req.method} ${event.url.pathname} ${response.status} ${Math.round(performance.now() - started)}ms`);
      return response;
    });
  }

  // Known path, other method → 405 with Allow; unknown path → 404. Both as JSON errors, and both
  // count against the client address like any request without credentials.
  const refuse = async (event: H3Event, error: ApiError): Promise<Response> => {
    try {
      await limiter.unauthenticated(event);
    } catch (limited) {
      return errorResponse(toErrorResponse(limited));
    }
    return errorResponse(toErrorResponse(error));
  };
  for (const [path, methods] of methodsByPath) {
    h3.on('', path, (event) => {
      const allow = [...methods].join(', ');
      if (event.req.method === 'OPTIONS' || event.req.method === 'HEAD') return new Response(null, { status: 204, headers: { allow } });
      return refuse(event, new ApiError(405, `method ${event.req.method} is not allowed here`, { allow }));
    });
  }
  h3.on('', '/**', (event) => refuse(event, new ApiError(404, `not found: ${event.req.method} ${event.url.pathname}`)));
  return h3;
}
