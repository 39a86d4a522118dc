// A route of the REST API as data: method, path, schemas, access level and a thin handler. The
// same table mounts the h3 app, generates the OpenAPI document and drives the authz tests.
import type { H3Event } from 'h3';
import type { z } from 'zod';
import type { AccessLevel, Actor, Services } from '@codehealth/service';

/** What the host hands to every handler besides the services. */
export interface AppContext {
  /** Infrastructure checked by `/healthz` and reported by `/health/detailed`. */
  components: readonly HealthComponent[];
  /** Process start, for uptime. */
  startedAt: Date;
  version: string;
  /** The mounted route table (for the OpenAPI document). */
  routes: readonly RouteDefinition[];
  /** `VCS_WEBHOOK_SECRET`: verifies inbound code-host webhooks; without it they answer 503. */
  webhookSecret?: string;
}

export interface HealthComponent {
  name: string;
  /** Resolves when the component answers; rejects (or times out) otherwise. */
  check(): Promise<void>;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteContext<P, Q, B, H = Record<string, never>> {
  event: H3Event;
  services: Services;
  /** The host's options (health components, SSE settings, ...). */
  app: AppContext;
  /** The authenticated caller; absent on routes with `auth: 'none'` or `'signature'`. */
  actor: Actor;
  params: P;
  query: Q;
  body: B;
  /** The request headers the route declares (`headers`), validated. */
  headers: H;
}

export interface RouteDefinition<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  H extends AnyObject | undefined = AnyObject | undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path (`/projects/{id}`), relative to `/api/v1` unless `root` is set. */
  path: string;
  root?: boolean;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * `key` (default): an API key is required. `none`: public (health checks, the OpenAPI document).
   * `signature`: the handler authenticates the request itself (a signed webhook) and answers 401
   * when it cannot; only those refusals count against the client address.
   */
  auth?: 'key' | 'none' | 'signature';
  /** For project routes (`{id}` is the project): the role the caller needs. */
  access?: AccessLevel;
  params?: P;
  query?: Q;
  /** Request headers the route reads, by name (documented as header parameters). */
  headers?: H;
  body?: B;
  /** When the body may be omitted entirely (treated as `{}`). */
  bodyOptional?: boolean;
  status: 200 | 201 | 204;
  /** Response schema; absent for 204 and for raw responses. */
  response?: z.ZodType;
  /** Error statuses this route can answer besides 400/401/500 (documented in OpenAPI). */
  errors?: number[];
  /** Set when the handler returns a Response itself (streams); `responseContentType` documents it. */
  raw?: boolean;
  responseContentType?: string;
  handler(
    ctx: RouteContext<
      P extends AnyObject ? z.output<P> : Record<string, never>,
      Q extends AnyObject ? z.output<Q> : Record<string, never>,
      B extends z.ZodType ? z.output<B> : undefined,
      H extends AnyObject ? z.output<H> : Record<string, never>
    >,
  ): unknown;
}

/** Declares a route with its types inferred from the schemas. */
export function defineRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  H extends AnyObject | undefined = undefined,
>(route: RouteDefinition<P, Q, B, H>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

/** `/projects/{id}` → `/projects/:id` (h3/rou3 syntax). */
export const toRouterPath = (path: string): string => path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');

export const API_PREFIX = '/api/v1';
export const fullPathOf = (route: Pick<RouteDefinition, 'path' | 'root'>): string => (route.root ? route.path : API_PREFIX + route.path);
