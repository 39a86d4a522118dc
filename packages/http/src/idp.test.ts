import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from './fixtures/test-api.js';
import { createIdpAuthenticator } from './idp.js';

// The identity provider at the protocol boundary: an HTTP server publishing a JWKS, as IdPs do.
describe('identity-provider tokens as bearer credentials', () => {
  let api: TestApi;
  let idp: Server;
  let issuer: string;
  let sign: (claims: Record<string, unknown>, options?: { issuer?: string; expiresIn?: string; hs?: string }) => Promise<string>;
  let jwksRequests = 0;
  const SECRET = 'idp-shared-secret-for-hs256-tokens';

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    idp = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json') {
        jwksRequests++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    sign = async (claims, options = {}) => {
      const jwt = new SignJWT(claims).setIssuedAt().setIssuer(options.issuer ?? issuer).setExpirationTime(options.expiresIn ?? '5m');
      if (options.hs) return jwt.setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(options.hs));
      return jwt.setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
    };
    api = await createTestApi();
    // Rebuild the app with the IdP authenticator over the same services.
    const { createApp } = await import('./app.js');
    api.app = createApp({ services: api.services, validateResponses: true, authenticators: [createIdpAuthenticator(api.services, { issuer, secretKey: SECRET })] });
  });
  afterAll(async () => {
    await api?.close();
    await new Promise((resolve) => idp?.close(resolve));
  });

  const projects = (token: string) => api.request('GET', '/api/v1/projects', { headers: { authorization: `Bearer ${token}` } });

  it('accepts a token signed with the issuer\'s published key and maps it to a user (created once)', async () => {
    const token = await sign({ sub: 'user_123', email: 'Ada@Example.com', name: 'Ada' });
    expect((await projects(token)).status).toBe(200);
    expect((await projects(token)).status).toBe(200);
    const users = await api.db.query<{ email: string; idp_subject: string }>("SELECT email, idp_subject FROM users WHERE idp_subject = 'user_123'");
    expect(users).toEqual([{ email: 'Ada@Example.com', idp_subject: 'user_123' }]);
    expect(jwksRequests).toBe(1); // the key set is cached
  });

  it('gives the token the memberships of the user with the same email (keys and UI share projects)', async () => {
    const viaKey = await api.createUser('grace@example.com');
    const projectId = await api.createProject(viaKey);
    const token = await sign({ sub: 'user_grace', email: 'grace@example.com' });
    const response = await api.request('GET', `/api/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.body.user_role).toBe('owner');
  });

  it('accepts HS256 tokens signed with IDP_SECRET_KEY', async () => {
    expect((await projects(await sign({ sub: 'hs_user', email: 'hs@example.com' }, { hs: SECRET }))).status).toBe(200);
  });

  it('refuses expired, foreign-issuer, wrongly signed and incomplete tokens with 401', async () => {
    const cases = [
      await sign({ sub: 'u1', email: 'x@example.com' }, { expiresIn: '-1m' }),
      await sign({ sub: 'u1', email: 'x@example.com' }, { issuer: 'https://evil.example.com' }),
      await sign({ sub: 'u1', email: 'x@example.com' }, { hs: 'not-the-secret' }),
      await sign({ sub: 'u1' }),
      await sign({ email: 'x@example.com' }),
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSIsImVtYWlsIjoieEBleGFtcGxlLmNvbSJ9.',
    ];
    for (const token of cases) expect(await projects(token)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });
});
