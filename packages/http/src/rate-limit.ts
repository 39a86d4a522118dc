// Per-caller rate limiting of the REST API: a fixed window per API key (or per user for IdP
// tokens), counted in the shared cache so every server replica counts together. Over the limit:
// 429 with Retry-After. A cache that is down lets requests through (availability over limiting).
import type { Actor, Cache } from '@codehealth/engine/server';
import { ApiError } from './http-errors.js';

export interface RateLimit {
  /** Requests per window and caller. */
  limit: number;
  windowSeconds: number;
}

/** The documented default: 600 requests per minute per API key. */
export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 600, windowSeconds: 60 };

/** Counts the request; throws 429 over the limit, else returns the headers to add to the response. */
export async function enforceRateLimit(cache: Cache, actor: Actor, limit: RateLimit): Promise<Record<string, string>> {
  const bucket = actor.keyId ? `key:${actor.keyId}` : `user:${actor.userId}`;
  let decision;
  try {
    decision = await cache.consume(bucket, limit.limit, limit.windowSeconds);
  } catch {
    return {};
  }
  const headers = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) {
    // The body is fixed (clients match it); the numbers are in the headers.
    throw new ApiError(429, 'rate limit exceeded', {
      ...headers,
      'retry-after': String(decision.resetSeconds),
    });
  }
  return headers;
}

export class RateLimitConfigError extends Error {
  override readonly name = 'RateLimitConfigError';
}

/** `RATE_LIMIT_PER_MINUTE`: a positive integer, or 0 to turn limiting off; default 600. */
export function rateLimitFromEnv(value: string | undefined): RateLimit | false {
  if (value === undefined || value.trim() === '') return DEFAULT_RATE_LIMIT;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new RateLimitConfigError('RATE_LIMIT_PER_MINUTE must be a whole number (0 turns rate limiting off)');
  return n === 0 ? false : { limit: n, windowSeconds: 60 };
}
