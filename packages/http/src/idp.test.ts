import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createTestApi, type TestApi } from '../../../test/helpers/test-api.js';
import { createIdpAuthenticator, type IdpOptions } from './idp.js';

interface SignOptions {
  issuer?: string;
  expiresIn?: string;
  hs?: string;
  audience?: string | string[];
}

// The identity provider at the protocol boundary: an HTTP server publishing a JWKS, as IdPs do.
describe('identity-provider tokens as bearer credentials', () => {
  let api: TestApi;
  let idp: Server;
  let issuer: string;
  let sign: (claims: Record<string, unknown>, options?: SignOptions) => Promise<string>;
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
      const jwt = new SignJWT(claims)
        .setIssuedAt()
        .setIssuer(options.issuer ?? issuer)
        .setExpirationTime(options.expiresIn ?? '5m');
      if (options.audience !== undefined) jwt.setAudience(options.audience);
      if (options.hs) return jwt.setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(options.hs));
      return jwt.setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
    };
    api = await createTestApi();
    // Rebuild the app with the IdP authenticator over the same services.
    api.app = appWith({ issuer, secretKey: SECRET });
  });
  afterAll(async () => {
    await api?.close();
    await new Promise((resolve) => idp?.close(resolve));
  });

  function appWith(options: IdpOptions) {
    return createApp({ services: api.services, validateResponses: true, rateLimit: false, authenticators: [createIdpAuthenticator(api.services, options)] });
  }
  /** The status of GET /projects with this token. */
  const projects = async (token: string, app = api.app) => (await app.request('/api/v1/projects', { headers: { authorization: `Bearer ${token}` } })).status;
  const usersOf = (subject: string) =>
    api.db.query<{ id: string; email: string; idp_issuer: string | null }>(
      'SELECT id, email, idp_issuer FROM users WHERE idp_subject = $1 ORDER BY created_at',
      [subject],
    );

  it("accepts a token signed with the issuer's published key and maps it to a user (created once)", async () => {
    const token = await sign({ sub: 'user_123', email: 'Ada@Example.com', email_verified: true, name: 'Ada' });
    expect(await projects(token)).toBe(200);
    expect(await projects(token)).toBe(200);
    const users = await api.db.query<{ email: string; idp_subject: string; idp_issuer: string }>(
      "SELECT email, idp_subject, idp_issuer FROM users WHERE idp_subject = 'user_123'",
    );
    expect(users).toEqual([{ email: 'Ada@Example.com', idp_subject: 'user_123', idp_issuer: issuer }]);
    expect(jwksRequests).toBe(1); // the key set is cached
  });

  it('gives the token the memberships of the user with the same verified email (keys and UI share projects)', async () => {
    const viaKey = await api.createUser('grace@example.com');
    const projectId = await api.createProject(viaKey);
    const token = await sign({ sub: 'user_grace', email: 'grace@example.com', email_verified: true });
    const response = await api.request('GET', `/api/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.body.user_role).toBe('owner');
  });

  it('never links nor creates a user by an unverified email on first sight', async () => {
    const victim = await api.createUser('victim@example.com');
    const projectId = await api.createProject(victim);
    for (const email_verified of [undefined, false, 'false']) {
      const token = await sign({ sub: 'attacker', email: 'victim@example.com', ...(email_verified === undefined ? {} : { email_verified }) });
      const response = await api.request('GET', `/api/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    }
    expect(await projects(await sign({ sub: 'newcomer', email: 'unclaimed@example.com' }))).toBe(401);
    expect(await api.db.query('SELECT idp_subject FROM users WHERE id = $1', [victim.userId])).toEqual([{ idp_subject: null }]);
    expect(await api.services.users.findByEmail('unclaimed@example.com')).toBeUndefined();
    // Cognito sends the claim as a string.
    expect(await projects(await sign({ sub: 'cognito', email: 'cognito@example.com', email_verified: 'true' }))).toBe(200);
  });

  it("maps by issuer and subject: the same user when the email changes, none for another issuer's same subject", async () => {
    const first = await sign({ sub: 'user_moves', email: 'old@example.com', email_verified: true });
    expect(await projects(first)).toBe(200);
    const [user] = await usersOf('user_moves');
    const projectId = await api.createProject({ ...(await api.createUser('colleague@example.com')) });
    await api.db.query("INSERT INTO project_members (id, project_id, user_id, role) VALUES (gen_random_uuid(), $1, $2, 'member')", [projectId, user!.id]);

    for (const claims of [
      { sub: 'user_moves', email: 'new@example.com', email_verified: true },
      { sub: 'user_moves', email: 'unverified-now@example.com', email_verified: false },
    ]) {
      const response = await api.request('GET', `/api/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${await sign(claims)}` } });
      expect(response).toMatchObject({ status: 200, body: { user_role: 'member' } });
    }
    expect(await usersOf('user_moves')).toEqual([user]);

    // Another identity of the same issuer with the old (verified) email is not this user.
    expect(await projects(await sign({ sub: 'someone_else', email: 'old@example.com', email_verified: true }))).toBe(401);
    // Another issuer's token with the same subject is another user.
    const otherIssuer = 'https://other-idp.example.com';
    const other = appWith({ issuer: otherIssuer, secretKey: SECRET });
    const foreign = await sign({ sub: 'user_moves', email: 'stranger@example.com', email_verified: true }, { issuer: otherIssuer, hs: SECRET });
    expect(await projects(foreign, other)).toBe(200);
    const both = await usersOf('user_moves');
    expect(both.map((row) => row.idp_issuer)).toEqual([issuer, otherIssuer]);
    expect(both[1]).toMatchObject({ email: 'stranger@example.com' });
    expect(both[1]!.id).not.toBe(user!.id);
  });

  it('creates one user for simultaneous first requests of one identity', async () => {
    const token = await sign({ sub: 'racer', email: 'racer@example.com', email_verified: true });
    expect(await Promise.all([1, 2, 3, 4].map(() => projects(token)))).toEqual([200, 200, 200, 200]);
    expect(await usersOf('racer')).toHaveLength(1);
  });

  it('keeps users whose subject was recorded before issuers were stored', async () => {
    const legacy = await api.createUser('legacy@example.com');
    await api.db.query("UPDATE users SET idp_subject = 'legacy_sub' WHERE id = $1", [legacy.userId]);
    const projectId = await api.createProject(legacy);
    const token = await sign({ sub: 'legacy_sub', email: 'legacy@example.com' });
    const response = await api.request('GET', `/api/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response).toMatchObject({ status: 200, body: { user_role: 'owner' } });
    expect(await usersOf('legacy_sub')).toEqual([{ id: legacy.userId, email: 'legacy@example.com', idp_issuer: issuer }]);
  });

  it('checks the audience: IDP_AUDIENCE must be named; unset, a token naming any audience is refused', async () => {
    const claims = { sub: 'aud_user', email: 'aud@example.com', email_verified: true };
    const configured = appWith({ issuer, secretKey: SECRET, audience: ['codehealth-web', 'codehealth-cli'] });
    expect(await projects(await sign(claims, { audience: 'codehealth-web' }), configured)).toBe(200);
    expect(await projects(await sign(claims, { audience: ['other-app', 'codehealth-cli'] }), configured)).toBe(200);
    expect(await projects(await sign(claims, { audience: 'codehealth-web', hs: SECRET }), configured)).toBe(200);
    for (const token of [await sign(claims, { audience: 'billing-app' }), await sign(claims), await sign(claims, { audience: 'billing-app', hs: SECRET })]) {
      expect(await projects(token, configured)).toBe(401);
    }
    // Without IDP_AUDIENCE: tokens for some audience (the IdP's other clients) are not ours.
    expect(await projects(await sign(claims, { audience: 'billing-app' }))).toBe(401);
    expect(await projects(await sign(claims))).toBe(200);
  });

  it('accepts HS256 tokens signed with IDP_SECRET_KEY', async () => {
    expect(await projects(await sign({ sub: 'hs_user', email: 'hs@example.com', email_verified: true }, { hs: SECRET }))).toBe(200);
  });

  it('refuses expired, foreign-issuer, wrongly signed and incomplete tokens with 401', async () => {
    const claims = { sub: 'u1', email: 'x@example.com', email_verified: true };
    const cases = [
      await sign(claims, { expiresIn: '-1m' }),
      await sign(claims, { issuer: 'https://evil.example.com' }),
      await sign(claims, { hs: 'not-the-secret' }),
      await sign({ sub: 'u1', email_verified: true }),
      await sign({ email: 'x@example.com', email_verified: true }),
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSIsImVtYWlsIjoieEBleGFtcGxlLmNvbSJ9.',
    ];
    for (const token of cases) expect(await projects(token)).toBe(401);
    expect(await api.request('GET', '/api/v1/projects', { headers: { authorization: `Bearer ${cases[0]}` } })).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
  });
});
