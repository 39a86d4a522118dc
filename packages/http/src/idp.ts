// Identity-provider tokens as bearer credentials (the web UI's path, spec section 5.8): JWTs from
// IDP_JWT_ISSUER for IDP_AUDIENCE, verified with jose — asymmetric keys from the issuer's JWKS
// (`<issuer>/.well-known/jwks.json`), or HS256 signed with IDP_SECRET_KEY. The token's issuer and
// `sub` map to a user; on first sight only a verified `email` links it to a user or creates one.
// The token then has that user's memberships.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Services } from '@codehealth/service';
import type { BearerAuthenticator } from './auth.js';

export interface IdpOptions {
  issuer: string;
  secretKey: string;
  /**
   * IDP_AUDIENCE: the `aud` a token must name (one of them, when several are given). Unset, a token
   * naming any audience is refused: the IdP's keys also sign tokens meant for its other clients.
   */
  audience?: string | string[];
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
    if (options.audience === undefined && payload.aud !== undefined) return undefined;
    const email = typeof payload.email === 'string' ? payload.email : undefined;
    if (!payload.sub || !email) return undefined;
    const user = await services.users.ensureFromIdentity({
      issuer: options.issuer,
      subject: payload.sub,
      email,
      // Some IdPs (Cognito) send the claim as a string.
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      name: typeof payload.name === 'string' ? payload.name : '',
    });
    // An unverified email on first sight, or an email that belongs to another identity: 401.
    return user ? { userId: user.id, email: user.email } : undefined;
  };
}
