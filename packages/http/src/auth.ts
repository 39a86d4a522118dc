// Authentication at the edge (spec section 5): `Authorization: Bearer <key>`; anything missing,
// malformed, unknown or revoked is 401 `{error: "unauthorized"}`.
import type { H3Event } from 'h3';
import type { Actor, Services } from '@codehealth/service';
import { ApiError } from './http-errors.js';

/** Another way to authenticate a bearer token (e.g. the identity provider's JWTs). */
export type BearerAuthenticator = (token: string) => Promise<Actor | undefined>;

export async function authenticate(event: H3Event, services: Services, extra: readonly BearerAuthenticator[] = []): Promise<Actor> {
  const header = event.req.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError(401, 'unauthorized', { 'www-authenticate': 'Bearer' });
  const token = match[1]!;
  try {
    return await services.apiKeys.authenticate(token);
  } catch (error) {
    if ((error as Error).name !== 'UnauthorizedError') throw error;
  }
  for (const authenticator of extra) {
    const actor = await authenticator(token);
    if (actor) return actor;
  }
  throw new ApiError(401, 'unauthorized', { 'www-authenticate': 'Bearer' });
}
