import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStaticSite, isApiPath } from './static-site.js';

const parent = mkdtempSync(join(tmpdir(), 'codehealth-static-'));
const root = join(parent, 'dist');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log(1)');
writeFileSync(join(root, 'assets', 'app-1a2b.css'), 'body{}');
writeFileSync(join(parent, 'secret.txt'), 'do not serve');
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const site = createStaticSite({ root, config: { apiBase: '' }, connectOrigins: ['https://api.example.com'] });
// new Request() would normalise dot segments; a server hands over what the client sent.
const get = (path: string, headers: Record<string, string> = {}) =>
  site({ url: `http://localhost${path}`, method: 'GET', headers: new Headers(headers) } as Request);

describe('the dashboard static site', () => {
  it('serves the page and assets with their content types and caching', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self' https://api.example.com");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const js = await get('/assets/app-1a2b.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log(1)');
    expect((await get('/assets/app-1a2b.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('/assets/app-1a2b.js', { 'if-none-match': js.headers.get('etag')! })).status).toBe(304);
  });

  it('answers routes with the page and missing files with 404', async () => {
    expect(await (await get('/projects/1/issues?severity=high')).text()).toBe('<!doctype html><title>app</title>');
    expect((await get('/assets/nope.js')).status).toBe(404);
    expect((await get('/assets/nope')).status).toBe(404);
    expect((await get('/favicon.ico')).status).toBe(404);
  });

  it('never leaves its root', async () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%5c..%5csecret.txt', '/x%00.js', '/%E0%A4%A']) {
      const response = await get(path);
      // Refused (400), or normalised by the URL parser to a path inside the root that does not exist (404).
      expect([400, 404], path).toContain(response.status);
      expect(await response.text()).not.toContain('do not serve');
    }
  });

  it('refuses encoded separators and dots outright', async () => {
    for (const path of ['/..%2fsecret.txt', '/assets/..%5c..%5csecret.txt', '/x%00.js', '/%E0%A4%A']) expect((await get(path)).status, path).toBe(400);
  });

  it('serves its configuration and refuses writes', async () => {
    expect(await (await get('/config.json')).json()).toEqual({ apiBase: '' });
    expect((await site(new Request('http://localhost/', { method: 'POST' }))).status).toBe(405);
  });

  it('leaves API paths to the API', () => {
    for (const path of ['/api/v1/projects', '/healthz', '/health/detailed', '/admin/keys', '/webhooks/github']) expect(isApiPath(path), path).toBe(true);
    for (const path of ['/', '/projects', '/health', '/apiary']) expect(isApiPath(path), path).toBe(false);
  });
});
