// The OpenAPI 3.1 document, generated from the route table and the same zod schemas that
// validate requests: it cannot drift from what the server accepts.
import { z } from 'zod';
import { api } from '@codehealth/service';
import { fullPathOf, type RouteDefinition } from './route.js';

type JsonObject = Record<string, unknown>;

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid input or missing required fields (also: a string containing U+0000, a number beyond ±1.8e308, JSON nested deeper than 64 levels)',
  401: 'missing, invalid or revoked API key',
  403: "the key's user has no access to the project or resource",
  404: 'not found',
  405: 'method not allowed',
  409: 'conflict with the current state',
  413: 'request body exceeds 1 MB',
  415: 'request body is not JSON',
  429: 'rate limit exceeded (per API key; per client address for requests without valid credentials); see Retry-After',
  500: 'internal server error',
  503: 'a dependency is unavailable',
};

export interface OpenApiOptions {
  version: string;
  /** Extra prose for `info.description` (decisions where the spec says "not shown"). */
  description?: string;
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonObject>): JsonObject {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' });
  // Named schemas (meta id) land in $defs; in OpenAPI they live under components.
  const generated = JSON.parse(JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonObject & {
    $defs?: Record<string, JsonObject>;
  };
  const { $defs, $schema: _schema, ...rest } = generated;
  for (const [id, def] of Object.entries($defs ?? {})) components[id] = def;
  const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
  if (id) {
    if (!$defs?.[id]) components[id] = rest;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rest;
}

function parametersOf(route: RouteDefinition, components: Record<string, JsonObject>): JsonObject[] {
  const parameters: JsonObject[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
    ['header', route.headers],
  ] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input', components) as { properties?: Record<string, JsonObject>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property as { description?: string; default?: unknown };
      // zod leaves out the default of a parameter read through a transform (digits to a number):
      // the value it applies is the one a client would send, so it is documented all the same.
      const field = schema.shape[name];
      if (field instanceof z.ZodDefault && rest.default === undefined) rest.default = field.def.defaultValue;
      parameters.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return parameters;
}

function operationOf(route: RouteDefinition, components: Record<string, JsonObject>): JsonObject {
  const responses: Record<string, JsonObject> = {};
  if (route.status === 204) responses['204'] = { description: 'no content' };
  else if (route.raw) {
    responses[String(route.status)] = { description: 'success', content: { [route.responseContentType ?? 'application/json']: {} } };
  } else {
    responses[String(route.status)] = {
      description: 'success',
      content: { 'application/json': { schema: route.response ? schemaOf(route.response, 'output', components) : {} } },
    };
  }
  const errorStatuses = new Set<number>([400, 500, ...(route.errors ?? [])]);
  // Every operation can be limited: per API key, or per client address without valid credentials.
  errorStatuses.add(429);
  if (route.auth !== 'none') errorStatuses.add(401);
  if (route.access) errorStatuses.add(403).add(404);
  if (route.body) errorStatuses.add(413).add(415);
  const errorRef = schemaOf(api.ErrorBody, 'output', components);
  for (const status of [...errorStatuses].sort()) {
    responses[String(status)] = { description: ERROR_TEXT[status] ?? 'error', content: { 'application/json': { schema: errorRef } } };
  }
  const operation: JsonObject = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    parameters: parametersOf(route, components),
    responses,
  };
  if (route.description) operation.description = route.description;
  if (route.auth === 'none' || route.auth === 'signature') operation.security = [];
  if (route.body) {
    operation.requestBody = {
      required: !route.bodyOptional,
      content: { 'application/json': { schema: schemaOf(route.body, 'input', components) } },
    };
  }
  return operation;
}

export function buildOpenApiDocument(routes: readonly RouteDefinition[], options: OpenApiOptions): JsonObject {
  const components: Record<string, JsonObject> = {};
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const path = fullPathOf(route);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CodeHealth REST API',
      version: options.version,
      description:
        options.description ??
        'Code health and pull-request analysis. Every error is `{ "error": "<message>" }`. ' +
          // The host's defaults (RATE_LIMIT_PER_MINUTE and RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE change them); see docs/cache.md.
          'Rate limit: 600 requests per minute per API key by default; every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`, and a request over the limit gets 429 with `Retry-After` (seconds). ' +
          'Requests without valid credentials (public routes, failed authentications, webhook deliveries whose signature fails, unknown paths) count against the client address: 120 per minute by default. A correctly signed webhook delivery is never limited.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'an API key: `Authorization: Bearer chk_...`' } },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
