// A loopback OpenID Connect provider for browser tests, at the protocol boundary: discovery, the
// authorization endpoint (a sign-in page for one user), the token endpoint (authorization code
// grant for public clients with PKCE S256 only: code single-use and short-lived, client_id and
// redirect_uri checked against the code), and the JWKS. ID tokens are RS256 with iss, sub, aud,
// exp, iat, nonce and the user's email claims (OpenID Connect Core 1.0 sections 3.1 and 2).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

export interface OidcUser {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

export interface OidcProvider {
  issuer: string;
  /** What happened, for assertions: each token request and its outcome. */
  tokenRequests: { grantType: string | null; ok: boolean; error?: string }[];
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string | undefined;
  expiresAt: number;
}

const base64url = (buffer: Buffer) => buffer.toString('base64url');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

export async function startOidcProvider(options: { clients: { clientId: string; redirectUris: string[] }[]; user: OidcUser }): Promise<OidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'loopback-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const tokenRequests: OidcProvider['tokenRequests'] = [];
  let issuer = '';

  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type, authorization',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...cors }).end(JSON.stringify(body));
  const page = (res: ServerResponse, status: number, html: string) =>
    res
      .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="en"><head><title>Loopback IdP</title></head><body><main>${html}</main></body></html>`);

  /** Checks an authorization request; returns the error to show (never redirected to an unchecked URI). */
  const checkAuthorization = (params: URLSearchParams): string | undefined => {
    const client = options.clients.find((c) => c.clientId === params.get('client_id'));
    if (!client) return 'unknown client_id';
    if (!client.redirectUris.includes(params.get('redirect_uri') ?? '')) return 'redirect_uri is not registered for this client';
    if (params.get('response_type') !== 'code') return 'unsupported response_type';
    if (!(params.get('scope') ?? '').split(' ').includes('openid')) return 'scope must include openid';
    if (params.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(params.get('code_challenge') ?? '')) return 'PKCE with S256 is required';
    return undefined;
  };

  async function issueIdToken(code: PendingCode): Promise<string> {
    const jwt = new SignJWT({
      email: options.user.email,
      email_verified: options.user.emailVerified,
      name: options.user.name,
      ...(code.nonce ? { nonce: code.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setIssuer(issuer)
      .setSubject(options.user.sub)
      .setAudience(code.clientId)
      .setIssuedAt()
      .setExpirationTime('10m');
    return jwt.sign(privateKey as CryptoKey);
  }

  /** The token endpoint: authorization code grant for public clients, PKCE S256 checked. */
  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const params = await readBody(req);
    const refuse = (error: string, description: string) => {
      tokenRequests.push({ grantType: params.get('grant_type'), ok: false, error: description });
      json(res, 400, { error, error_description: description });
    };
    if (params.get('grant_type') !== 'authorization_code') return refuse('unsupported_grant_type', 'only authorization_code');
    const code = codes.get(params.get('code') ?? '');
    codes.delete(params.get('code') ?? ''); // single use, whatever the outcome
    if (!code || code.expiresAt < Date.now()) return refuse('invalid_grant', 'unknown, used or expired code');
    if (params.get('client_id') !== code.clientId) return refuse('invalid_grant', 'client_id differs from the authorization request');
    if (params.get('redirect_uri') !== code.redirectUri) return refuse('invalid_grant', 'redirect_uri differs from the authorization request');
    const verifier = params.get('code_verifier') ?? '';
    if (!/^[\w.~-]{43,128}$/.test(verifier) || base64url(createHash('sha256').update(verifier).digest()) !== code.challenge) {
      return refuse('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    tokenRequests.push({ grantType: 'authorization_code', ok: true });
    json(res, 200, { access_token: base64url(randomBytes(24)), token_type: 'Bearer', expires_in: 600, id_token: await issueIdToken(code) });
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/.well-known/jwks.json`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          scopes_supported: ['openid', 'email', 'profile'],
        });
      }
      if (req.method === 'GET' && url.pathname === '/.well-known/jwks.json') return json(res, 200, { keys: [jwk] });
      if (url.pathname === '/authorize') {
        const params = req.method === 'POST' ? await readBody(req) : url.searchParams;
        const problem = checkAuthorization(params);
        if (problem) return page(res, 400, `<h1>Sign-in refused</h1><p>${escapeHtml(problem)}</p>`);
        if (req.method === 'GET') {
          const hidden = [...params].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
          return page(
            res,
            200,
            `<h1>Loopback IdP</h1><form method="post" action="/authorize">${hidden}<button type="submit">Continue as ${escapeHtml(options.user.email)}</button></form>`,
          );
        }
        const code = base64url(randomBytes(24));
        codes.set(code, {
          clientId: params.get('client_id')!,
          redirectUri: params.get('redirect_uri')!,
          challenge: params.get('code_challenge')!,
          nonce: params.get('nonce') ?? undefined,
          expiresAt: Date.now() + 60_000,
        });
        const back = new URL(params.get('redirect_uri')!);
        back.searchParams.set('code', code);
        if (params.get('state')) back.searchParams.set('state', params.get('state')!);
        return void res.writeHead(302, { location: back.toString() }).end();
      }
      if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
      res.writeHead(404).end();
    })().catch((error: Error) => res.writeHead(500).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    tokenRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
