// Identity-provider tokens as bearer credentials (the web UI's path, spec section 5.8): JWTs from
// IDP_JWT_ISSUER, verified with jose — asymmetric keys from the issuer's JWKS
// (`<issuer>/.well-known/jwks.json`), or HS256 signed with IDP_SECRET_KEY. The token's `sub` and
// `email` map to a user, created on first sight; it then has that user's memberships.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Services } from '@codehealth/engine/server';
import type { BearerAuthenticator } from './auth.js';

export interface IdpOptions {
  issuer: string;
  secretKey: string;
  /** Expected `aud`, when the IdP sets one. */
  audience?: string;
  /** Clock tolerance in seconds (default 5). */
  clockToleranceSeconds?: number;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function createIdpAuthenticator(services: Services, options: IdpOptions): BearerAuthenticator {
  const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', options.issuer.endsWith('/') ? options.issuer : `${options.issuer}/`), {
    timeoutDuration: 5_000,
    cooldownDuration: 30_000,
  });
  const secret = new TextEncoder().encode(options.secretKey);
  const verifyOptions = {
    issuer: options.issuer,
    audience: options.audience,
    clockTolerance: options.clockToleranceSeconds ?? 5,
  };
  return async (token) => {
    if (!JWT_SHAPE.test(token)) return undefined;
    let payload: JWTPayload;
    try {
      const { alg } = decodeProtectedHeader(token);
      payload =
        alg === 'HS256'
          ? (await jwtVerify(token, secret, { ...verifyOptions, algorithms: ['HS256'] })).payload
          : (await jwtVerify(token, jwks, { ...verifyOptions, algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'] })).payload;
    } catch {
      return undefined; // expired, wrong issuer/audience, bad signature, unknown key: 401
    }
    const email = typeof payload.email === 'string' ? payload.email : undefined;
    if (!payload.sub || !email) return undefined;
    const user = await services.users.ensureFromIdentity(payload.sub, email, typeof payload.name === 'string' ? payload.name : '');
    return { userId: user.id, email: user.email };
  };
}
