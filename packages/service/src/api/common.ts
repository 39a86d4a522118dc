// Building blocks of the wire schemas (spec section 2): one zod schema per resource, used by the
// REST host to validate input and to generate the OpenAPI document, and by tests to check output.
import { z } from 'zod';

export const Uuid = z.uuid();
export const Timestamp = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 UTC timestamp' });
export const ProjectRoleSchema = z.enum(['owner', 'member']);

/** Body of every error response (spec section 7). */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: 'Error' });

/** `{ status }` acknowledgements (dismissed, restored, ...). */
export const StatusBody = z.object({ status: z.string() }).meta({ id: 'StatusResponse' });

/** The largest Postgres `integer`: the upper bound of offsets and sequence numbers read from requests. */
export const MAX_INT32 = 2_147_483_647;

/**
 * An integer written in a query string or header: plain decimal digits only (no sign, blank,
 * fraction, exponent or hex, all of which `Number()` would take), from `min` to `max`. Documented
 * as the integer it is; a violation names the parameter and its range.
 */
export function decimalInteger(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}, written in decimal digits`;
  return z
    .string()
    .transform((text, ctx) => {
      const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
      if (value >= min && value <= max) return value;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: min, maximum: max } as Record<string, unknown>);
}

/** Query parameters of paginated lists (spec section 8: default 20, maximum 100). */
export function paginationQuery(defaultLimit = 20, maxLimit = 100) {
  return {
    limit: decimalInteger('limit', 1, maxLimit)
      .default(defaultLimit)
      .meta({ description: `page size, default ${defaultLimit}, maximum ${maxLimit}` }),
    offset: decimalInteger('offset', 0, MAX_INT32).default(0).meta({ description: 'items to skip, default 0' }),
  };
}
