// OpenID Connect sign-in for the self-hosted frontend: authorization code flow with PKCE (S256) as
// a public client. The ID token goes to the API as the bearer credential; the API verifies its
// signature, issuer and audience (IDP_AUDIENCE = this client's id), so nothing here trusts it more
// than reading the nonce.
import { siteConfig, storeToken } from './api.js';
import { safeNext } from './router.js';

const PENDING_KEY = 'codehealth.oidc-pending';

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  issuer: string;
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (size = 32): string => base64url(crypto.getRandomValues(new Uint8Array(size)));

async function discover(issuer: string): Promise<Discovery> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new Error(`Cannot reach the identity provider at ${issuer}.`);
  }
  if (!response.ok) throw new Error(`The identity provider's discovery document answered ${response.status}.`);
  const document = (await response.json()) as Discovery;
  if (document.issuer !== issuer) throw new Error(`The identity provider names itself ${document.issuer}, not ${issuer}.`);
  return document;
}

export const redirectUri = (): string => `${location.origin}/auth/callback`;

export async function startOidcSignIn(next: string): Promise<void> {
  const oidc = siteConfig().oidc;
  if (!oidc) throw new Error('This frontend has no identity provider configured.');
  const discovery = await discover(oidc.issuer);
  const verifier = random(48);
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const state = random(16);
  const nonce = random(16);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, nonce, next }));
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: oidc.clientId,
    redirect_uri: redirectUri(),
    scope: oidc.scope,
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

function claims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(decodeURIComponent(escape(json))) as Record<string, unknown>;
}

/** Handles /auth/callback: checks state, redeems the code with the verifier; returns where to go. */
export async function finishOidcSignIn(query: URLSearchParams): Promise<string> {
  const oidc = siteConfig().oidc;
  if (!oidc) throw new Error('This frontend has no identity provider configured.');
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string; nonce: string; next: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (query.get('error')) throw new Error(`The identity provider refused the sign-in: ${query.get('error_description') ?? query.get('error')}.`);
  if (!pending || query.get('state') !== pending.state) throw new Error('This sign-in response does not belong to a sign-in started here. Start again.');
  const code = query.get('code');
  if (!code) throw new Error('The identity provider sent no authorization code.');
  const discovery = await discover(oidc.issuer);
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: oidc.clientId,
      code_verifier: pending.verifier,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as { id_token?: string; error?: string; error_description?: string };
  if (!response.ok || !body.id_token)
    throw new Error(`The identity provider did not issue a token: ${body.error_description ?? body.error ?? response.status}.`);
  if (claims(body.id_token).nonce !== pending.nonce) throw new Error('The ID token does not carry this sign-in’s nonce.');
  storeToken(body.id_token, 'oidc', false);
  return safeNext(pending.next);
}
