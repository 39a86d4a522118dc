// Reading and validating the parts of a request at the edge: JSON bodies (size-limited,
// malformed JSON is a 400), query strings, headers and path parameters, each against its zod schema.
import type { H3Event } from 'h3';
import { z } from 'zod';
import { ApiError, formatZodIssues } from './http-errors.js';

/** Request bodies above this size are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The body as text, refused with 413 beyond `limit` bytes (declared or streamed). */
export async function readLimited(event: H3Event, limit: number): Promise<string> {
  const declared = Number(event.req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) throw new ApiError(413, 'request body exceeds the 1 MB limit');
  const stream = event.req.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError(413, 'request body exceeds the 1 MB limit');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses and validates a JSON body; an empty body is `{}` when `optional`. */
export async function readJsonBody<T extends z.ZodType>(event: H3Event, schema: T, optional: boolean): Promise<z.output<T>> {
  const text = await readLimited(event, MAX_BODY_BYTES);
  let value: unknown = {};
  if (text.trim() === '') {
    if (!optional) throw new ApiError(400, 'request body is required (JSON object)');
  } else {
    const type = event.req.headers.get('content-type') ?? '';
    if (type && !/^application\/(.+\+)?json\b/i.test(type)) throw new ApiError(415, 'request body must be JSON (Content-Type: application/json)');
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, 'request body is not valid JSON');
    }
  }
  refuseUnstorable('request body', value);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError(400, formatZodIssues('request body', parsed.error));
  return parsed.data;
}

/** JSON bodies nest at most this deep: Postgres' jsonb and JSON.stringify run out of stack near 5,000 levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Refuses what validation lets through but the store cannot hold, with a 400 naming the field
 * instead of a 500 from the database or a silent change: U+0000 in a string or a name (Postgres
 * text and jsonb cannot hold it), a number beyond the double range (`1e400` parses as Infinity,
 * which JSON.stringify would store as null) and nesting beyond MAX_JSON_DEPTH. Walked without
 * recursion, paths kept as parent links (built only for the message).
 */
function refuseUnstorable(where: string, root: unknown): void {
  interface Step {
    value: unknown;
    depth: number;
    key?: string;
    parent?: Step;
  }
  const pathOf = (step: Step): string => {
    const keys: string[] = [];
    for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) keys.push(at.key);
    return keys.length > 0 ? `${keys.reverse().join('.')}: ` : '';
  };
  const pending: Step[] = [{ value: root, depth: 0 }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const { value, depth } = step;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new ApiError(400, `invalid ${where}: ${pathOf(step)}must not contain the NUL character (\\u0000)`);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new ApiError(400, `invalid ${where}: ${pathOf(step)}number out of range (at most about 1.8e308 in magnitude)`);
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) throw new ApiError(400, `invalid ${where}: nested deeper than ${MAX_JSON_DEPTH} levels`);
      for (const [key, item] of Object.entries(value)) {
        const child: Step = { value: item, depth: depth + 1, key, parent: step };
        if (key.includes('\u0000')) throw new ApiError(400, `invalid ${where}: ${pathOf(child)}names must not contain the NUL character (\\u0000)`);
        pending.push(child);
      }
    }
  }
}

/** Validates the query string; repeated parameters take their last value. */
export function readQuery<T extends z.ZodType>(event: H3Event, schema: T): z.output<T> {
  const raw: Record<string, string> = {};
  for (const [key, value] of event.url.searchParams) raw[key] = value;
  refuseUnstorable('query parameter', raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, formatZodIssues('query parameter', parsed.error));
  return parsed.data;
}

/** Validates the request headers a route declares (names are case-insensitive); absent or empty ones are undefined. */
export function readHeaders<T extends z.ZodObject<z.ZodRawShape>>(event: H3Event, schema: T): z.output<T> {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = event.req.headers.get(name);
    if (value) raw[name] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, formatZodIssues('header', parsed.error));
  return parsed.data;
}

export function readParams<T extends z.ZodType>(params: Record<string, string>, schema: T): z.output<T> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new ApiError(400, formatZodIssues('path parameter', parsed.error));
  return parsed.data;
}

/** Query booleans: `true`/`false`/`1`/`0`, nothing else. */
export const QueryBoolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
