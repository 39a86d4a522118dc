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

/** Query parameters of paginated lists (spec section 8: default 20, maximum 100). */
export function paginationQuery(defaultLimit = 20, maxLimit = 100) {
  return {
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .default(defaultLimit)
      .meta({ description: `page size, default ${defaultLimit}, maximum ${maxLimit}` }),
    offset: z.coerce.number().int().min(0).default(0).meta({ description: 'items to skip, default 0' }),
  };
}
