// Serves the dashboard's built files (packages/web/dist) beside the API: content types by
// extension, long-lived caching for hashed assets and revalidation for the page, a single-page-app
// fallback to index.html for routes, a /config.json the page reads at start, and no way out of the
// root (encoded dots, backslashes and NUL are refused before the file system is asked).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticSiteOptions {
  /** The directory holding index.html and assets/. */
  root: string;
  /** Served as /config.json (the page's API base, sign-in methods). */
  config: Record<string, unknown>;
  /** Origins the page may connect to besides its own (BACKEND_URL, the identity provider). */
  connectOrigins?: readonly string[];
}

export type StaticSite = (request: Request) => Promise<Response>;

/** Paths that belong to the API host, never to the dashboard. */
export function isApiPath(pathname: string): boolean {
  return (
    pathname === '/api' ||
    pathname.startsWith('/api/') ||
    pathname === '/healthz' ||
    pathname.startsWith('/health/') ||
    pathname.startsWith('/admin/') ||
    pathname.startsWith('/webhooks/')
  );
}

function securityHeaders(connect: readonly string[]): Record<string, string> {
  const connectSrc = ["'self'", ...connect].join(' ');
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${connectSrc}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

const text = (status: number, body: string, headers: Record<string, string> = {}): Response =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } });

export function createStaticSite(options: StaticSiteOptions): StaticSite {
  const root = resolve(options.root);
  const headers = securityHeaders(options.connectOrigins ?? []);
  const configBody = JSON.stringify(options.config);

  /** The file under root for a URL path, or undefined when the path is not a plain relative one. */
  const fileFor = (pathname: string): string | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((part) => part === '..' || part === '.')) return undefined;
    const file = resolve(root, `.${decoded}`);
    return file === root || file.startsWith(root + sep) ? file : undefined;
  };

  const serveFile = async (request: Request, file: string, cacheControl: string): Promise<Response | undefined> => {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const etag = `"${createHash('sha1').update(`${info.size}:${info.mtimeMs}:${file}`).digest('base64url').slice(0, 16)}"`;
    const common = { ...headers, 'cache-control': cacheControl, etag, 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
    if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: common });
    const body = request.method === 'HEAD' ? null : await readFile(file);
    return new Response(body, { status: 200, headers: { ...common, 'content-length': String(info.size) } });
  };

  const indexPage = async (request: Request): Promise<Response> =>
    (await serveFile(request, resolve(root, 'index.html'), 'no-cache')) ??
    text(503, 'The dashboard is not built: run `npm run build` (npm ci does it), then restart. The API is at /api/v1.');

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'method not allowed', { allow: 'GET, HEAD' });
    const { pathname } = new URL(request.url);
    if (pathname === '/config.json') {
      return new Response(request.method === 'HEAD' ? null : configBody, {
        headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
      });
    }
    if (pathname === '/' || pathname === '/index.html') return indexPage(request);
    const file = fileFor(pathname);
    if (!file) return text(400, 'bad path');
    const hashed = pathname.startsWith('/assets/');
    const served = await serveFile(request, file, hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (served) return served;
    // A route of the app (no extension) gets the page; a missing file (an extension) is a 404.
    if (extname(pathname) === '' && !hashed) return indexPage(request);
    return text(404, `not found: ${pathname}`);
  };
}
