// The dashboard's only way to the server: REST API v1 with a bearer credential (an API key pasted
// once, or an identity-provider token). Errors carry the API's own words.

export interface SiteConfig {
  /** Where /api/v1 lives: '' for the same origin (embedded), else BACKEND_URL. */
  apiBase: string;
  /** OpenID Connect sign-in (self-hosted frontend). */
  oidc?: { issuer: string; clientId: string; scope: string };
  /** The embedded server can turn a one-time link into a key. */
  localSignIn?: boolean;
}

let config: SiteConfig = { apiBase: '' };

export async function loadConfig(): Promise<SiteConfig> {
  try {
    const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
    if (response.ok) config = { ...config, ...((await response.json()) as SiteConfig) };
  } catch {
    // Served without a config: same-origin API, key sign-in.
  }
  return config;
}

export const siteConfig = (): SiteConfig => config;

const TOKEN_KEY = 'codehealth.token';
const KIND_KEY = 'codehealth.token-kind';

export type TokenKind = 'api-key' | 'oidc';

export function currentToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
}

export function tokenKind(): TokenKind | null {
  return (sessionStorage.getItem(KIND_KEY) ?? localStorage.getItem(KIND_KEY)) as TokenKind | null;
}

/** `remember`: localStorage (survives the browser); else sessionStorage (this tab). */
export function storeToken(token: string, kind: TokenKind, remember: boolean): void {
  forgetToken();
  const storage = remember ? localStorage : sessionStorage;
  storage.setItem(TOKEN_KEY, token);
  storage.setItem(KIND_KEY, kind);
}

export function forgetToken(): void {
  for (const storage of [localStorage, sessionStorage]) {
    storage.removeItem(TOKEN_KEY);
    storage.removeItem(KIND_KEY);
  }
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const listeners = new Set<() => void>();
/** Called when the server refuses the credential (401): the app goes back to sign-in. */
export function onUnauthorized(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function apiUrl(path: string): string {
  return `${config.apiBase.replace(/\/$/, '')}/api/v1${path}`;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  token?: string;
}

function describe(status: number, error: string | undefined): string {
  if (error && error !== 'unauthorized' && error !== 'forbidden') return error;
  if (status === 401) return 'Your sign-in is no longer accepted (the key was revoked or the session expired). Sign in again.';
  if (status === 403) return 'You do not have access to this project or action.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many requests; wait a minute and try again.';
  if (status >= 500) return `The server failed (${status}). Try again; if it persists, look at the server log.`;
  return `The request failed (${status}).`;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = options.token ?? currentToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, `Cannot reach the server at ${config.apiBase || location.origin}. Is it running?`);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: unknown } | undefined)?.error;
    if (response.status === 401 && !options.token) listeners.forEach((listener) => listener());
    throw new ApiError(response.status, describe(response.status, typeof error === 'string' ? error : undefined));
  }
  return body as T;
}

export interface ServerEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a server-sent event stream with the bearer header (EventSource cannot send one); resolves
 * when the server closes the stream.
 */
export async function readEvents(path: string, onEvent: (event: ServerEvent) => void, signal?: AbortSignal): Promise<void> {
  const token = currentToken();
  const response = await fetch(apiUrl(path), {
    headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal,
  });
  if (!response.ok || !response.body) {
    let message: string | undefined;
    try {
      message = ((await response.json()) as { error?: string }).error;
    } catch {
      message = undefined;
    }
    throw new ApiError(response.status, describe(response.status, message));
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = parseEventBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) onEvent(event);
    }
  }
}

/** One server-sent event from its lines (comments skipped); undefined without data. */
function parseEventBlock(block: string): ServerEvent | undefined {
  const event: ServerEvent = { event: 'message', data: '' };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const content = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event.event = content;
    else if (field === 'id') event.id = content;
    else if (field === 'data') data.push(content);
  }
  if (data.length === 0) return undefined;
  event.data = data.join('\n');
  return event;
}
