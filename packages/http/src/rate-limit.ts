// Rate limiting of the REST API, in fixed windows counted in the shared cache so every server
// replica counts together. Authenticated requests count per API key (or per user for IdP tokens).
// Requests without valid credentials count per client address: every request to a public route
// (health checks, the OpenAPI document), every failed authentication, every webhook delivery whose
// signature fails, every unknown path. A correctly signed webhook delivery never counts: GitHub
// delivers every App's hooks from the same shared addresses, and a stranger's failing hook must not
// cut ours off. Over a limit: 429 with Retry-After. A cache that is down lets requests through
// (availability over limiting).
import type { Actor, Cache } from '@codehealth/service';
import type { H3Event } from 'h3';
import { clientAddressOf, type TrustedProxies } from './client-address.js';
import { ApiError } from './http-errors.js';

export interface RateLimit {
  /** Requests per window and caller. */
  limit: number;
  windowSeconds: number;
}

/** The documented default: 600 requests per minute per API key. */
export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 600, windowSeconds: 60 };

/**
 * The documented default for requests without valid credentials: 120 per minute per client address
 * (a load balancer probing /healthz every second uses half of it).
 */
export const DEFAULT_UNAUTHENTICATED_RATE_LIMIT: RateLimit = { limit: 120, windowSeconds: 60 };

export interface RateLimiterOptions {
  /** Per API key or user; false: unlimited. */
  perKey: RateLimit | false;
  /** Per client address, for requests without valid credentials; false: unlimited. */
  perAddress: RateLimit | false;
  /** Proxies whose X-Forwarded-For names the client address. */
  trustedProxies?: TrustedProxies;
}

export interface RateLimiter {
  /** Counts an authenticated request; throws 429 over the limit, else returns the headers for the answer. */
  authenticated(actor: Actor): Promise<Record<string, string>>;
  /** Counts a request without valid credentials against its client address; throws 429 over the limit. */
  unauthenticated(event: H3Event): Promise<Record<string, string>>;
}

async function consume(cache: Cache, bucket: string, limit: RateLimit | false): Promise<Record<string, string>> {
  if (!limit) return {};
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

export function createRateLimiter(cache: Cache, options: RateLimiterOptions): RateLimiter {
  return {
    authenticated: (actor) => consume(cache, actor.keyId ? `key:${actor.keyId}` : `user:${actor.userId}`, options.perKey),
    unauthenticated: (event) => consume(cache, `address:${clientAddressOf(event, options.trustedProxies)}`, options.perAddress),
  };
}

/** Counts the request of an authenticated caller; throws 429 over the limit, else returns the headers to add. */
export function enforceRateLimit(cache: Cache, actor: Actor, limit: RateLimit): Promise<Record<string, string>> {
  return createRateLimiter(cache, { perKey: limit, perAddress: false }).authenticated(actor);
}

export class RateLimitConfigError extends Error {
  override readonly name = 'RateLimitConfigError';
}

/**
 * A per-minute limit from the environment: a whole number, 0 turning limiting off; unset, the default.
 * `RATE_LIMIT_PER_MINUTE` (per API key, default 600) and `RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE`
 * (per client address, default 120).
 */
export function rateLimitFromEnv(value: string | undefined, name = 'RATE_LIMIT_PER_MINUTE', fallback: RateLimit = DEFAULT_RATE_LIMIT): RateLimit | false {
  if (value === undefined || value.trim() === '') return fallback;
  const n = /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n)) throw new RateLimitConfigError(`${name} must be a whole number (0 turns rate limiting off)`);
  return n === 0 ? false : { limit: n, windowSeconds: 60 };
}
