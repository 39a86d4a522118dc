// The self-hosted frontend (`codehealth web`) signs a user in through a loopback OpenID Connect
// provider (authorization code with PKCE) in Chromium; the API, on another origin with CORS_ORIGINS
// naming the frontend and IDP_AUDIENCE naming its client, accepts the ID token.
import 'reflect-metadata';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createApp, createIdpAuthenticator } from '../../packages/http/src/index.js';
import { createTestApi, type TestApi } from '../helpers/test-api.js';
import { listen, type RunningServer } from '../../packages/cli/src/host/http-server.js';
import { readWebConfig, startWebHost } from '../../packages/cli/src/host/web-host.js';
import { startOidcProvider, type OidcProvider } from '../helpers/oidc-provider.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`SKIPPED: the OpenID Connect browser test needs Chromium at ${CHROMIUM} (apt-get install -y chromium).`);
const CLIENT_ID = 'codehealth-dashboard';

let api: TestApi;
let apiServer: RunningServer;
let web: RunningServer;
let idp: OidcProvider;
let context: BrowserContext;
let page: Page;
let profile: string;

beforeAll(async () => {
  api = await createTestApi();
  apiServer = await listen((request) => api.app.fetch(request), { host: '127.0.0.1', port: 0 });
  web = await startWebHost(
    readWebConfig({ BACKEND_URL: apiServer.url, PORT: '0', HOST: '127.0.0.1', IDP_JWT_ISSUER: 'http://placeholder.invalid', IDP_CLIENT_ID: CLIENT_ID }),
  );
  // The frontend's port is known only now: start the provider with its redirect URI, then the frontend again with the issuer.
  idp = await startOidcProvider({
    clients: [{ clientId: CLIENT_ID, redirectUris: [`${web.url}/auth/callback`] }],
    user: { sub: 'idp|ada', email: 'ada@example.com', emailVerified: true, name: 'Ada' },
  });
  const port = web.port;
  await web.close();
  web = await startWebHost(
    readWebConfig({ BACKEND_URL: apiServer.url, PORT: String(port), HOST: '127.0.0.1', IDP_JWT_ISSUER: idp.issuer, IDP_CLIENT_ID: CLIENT_ID }),
  );
  api.app = createApp({
    services: api.services,
    rateLimit: false,
    unauthenticatedRateLimit: false,
    corsOrigins: [web.url],
    authenticators: [createIdpAuthenticator(api.services, { issuer: idp.issuer, secretKey: 'unused-hs256-secret', audience: CLIENT_ID })],
  });
  if (!available) return;
  const { chromium } = await import('playwright-core');
  profile = mkdtempSync(join(tmpdir(), 'codehealth-chromium-oidc-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await web?.close();
  await apiServer?.close();
  await idp?.close();
  await api?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('codehealth web configuration', () => {
  it('needs BACKEND_URL and a client id with the issuer, and says so', () => {
    expect(() => readWebConfig({})).toThrow(/BACKEND_URL is required/);
    expect(() => readWebConfig({ BACKEND_URL: 'ftp://x' })).toThrow(/BACKEND_URL must be an http\(s\) URL/);
    expect(() => readWebConfig({ BACKEND_URL: 'http://api', IDP_JWT_ISSUER: 'https://idp.example.com' })).toThrow(/IDP_CLIENT_ID is required/);
    expect(readWebConfig({ BACKEND_URL: 'https://api.example.com/' })).toEqual({ host: '0.0.0.0', port: 3000, backendUrl: 'https://api.example.com' });
  });

  it('serves the page with its API base and identity provider in /config.json, and a CSP that allows them', async () => {
    const config = await fetch(`${web.url}/config.json`);
    expect(await config.json()).toEqual({ apiBase: apiServer.url, oidc: { issuer: idp.issuer, clientId: CLIENT_ID, scope: 'openid email profile' } });
    const index = await fetch(`${web.url}/projects`);
    expect(index.headers.get('content-security-policy')).toContain(`connect-src 'self' ${apiServer.url} ${idp.issuer}`);
  });
});

describe.skipIf(!available)('OpenID Connect sign-in in Chromium', () => {
  it('signs in with authorization code + PKCE and uses the ID token against the API on another origin', async () => {
    await page.goto(`${web.url}/projects`);
    await page.getByRole('button', { name: 'Sign in with the identity provider' }).click();
    await page.getByRole('heading', { name: 'Loopback IdP' }).waitFor();
    expect(new URL(page.url()).searchParams.get('code_challenge_method')).toBe('S256');
    await page.getByRole('button', { name: 'Continue as ada@example.com' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects');
    expect(idp.tokenRequests).toEqual([{ grantType: 'authorization_code', ok: true }]);

    // The ID token is the bearer credential: create a project through the page, read it back with the token.
    await page.getByLabel('Name', { exact: true }).fill('Federated');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: /Repositories/ }).waitFor();
    const token = await page.evaluate(() => sessionStorage.getItem('codehealth.token'));
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const projects = await fetch(`${apiServer.url}/api/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await projects.json()) as { name: string }[]).map((p) => p.name)).toEqual(['Federated']);
    const users = await api.db.query<{ email: string }>('SELECT email FROM users WHERE idp_subject = $1', ['idp|ada']);
    expect(users.map((u) => u.email)).toEqual(['ada@example.com']);
  });

  it('refuses a callback that no sign-in here started, in words', async () => {
    await page.goto(`${web.url}/auth/callback?code=stolen&state=forged`);
    await page.getByRole('alert').filter({ hasText: 'does not belong to a sign-in started here' }).waitFor();
    expect(idp.tokenRequests).toHaveLength(1); // the forged code never reached the token endpoint
  });
});
