// `keys create` on a data dir the embedded server holds: PGlite allows one process per data dir,
// so the running server creates the key for the CLI. It serves `POST /admin/keys` (outside
// /api/v1) to loopback peers that present the random admin token it wrote to its 0600 lock file.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiKeyService, UserService, type Database } from '@codehealth/service';

export const ADMIN_KEYS_PATH = '/admin/keys';
const MAX_ADMIN_BODY_BYTES = 16 * 1024;

export const AdminKeyInput = z
  .object({
    email: z
      .string()
      .trim()
      .max(320)
      .pipe(z.email({ error: 'not a valid email address' })),
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200)
      // Postgres text cannot hold U+0000: refused here, not a 500 from the store.
      .refine((name) => !name.includes('\u0000'), 'must not contain the NUL character (\\u0000)')
      .default('cli'),
  })
  .strict();
export type AdminKeyInput = z.input<typeof AdminKeyInput>;

/** The `keys create` output contract: exactly these fields, in this order. */
export interface CreatedUserKey {
  user_id: string;
  email: string;
  key_id: string;
  key: string;
}

export class AdminInputError extends Error {
  override readonly name = 'AdminInputError';
  readonly expose = true;
}

export function parseAdminKeyInput(input: unknown): z.output<typeof AdminKeyInput> {
  const parsed = AdminKeyInput.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw new AdminInputError(field ? `${field === 'email' ? 'email' : field}: ${issue.message}` : issue.message);
}

/** Creates the user when missing and a new key, in one transaction (no user without its key). */
export async function createUserKey(db: Database, input: AdminKeyInput, description = 'created by codehealth keys create'): Promise<CreatedUserKey> {
  const { email, name } = parseAdminKeyInput(input);
  return db.transaction(async (tx) => {
    const user = await new UserService(tx).ensure(email);
    const key = await new ApiKeyService(tx).create(user.id, { name, description });
    return { user_id: user.id, email: user.email, key_id: key.id, key: key.key };
  });
}

export const generateAdminToken = (): string => randomBytes(32).toString('base64url');

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export interface AdminKeysRoute {
  /** `peer` is the TCP peer's address; forwarded-for headers are never trusted. */
  handle(request: Request, peer: string | undefined): Promise<Response>;
}

export function createAdminKeysRoute(options: { db: Database; token: string; log?: (line: string) => void }): AdminKeysRoute {
  const expected = digest(options.token);
  const log = options.log ?? (() => {});
  const authorized = (request: Request): boolean => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };

  async function respond(request: Request, peer: string | undefined): Promise<Response> {
    // A proxy on this machine would make remote callers look local: refuse anything proxied.
    if (!isLoopback(peer) || request.headers.has('x-forwarded-for') || request.headers.has('forwarded')) {
      return json(403, { error: 'forbidden' });
    }
    if (request.method !== 'POST') return json(405, { error: `method ${request.method} is not allowed here` }, { allow: 'POST' });
    if (!authorized(request)) return json(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
    if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
      return json(415, { error: 'the body must be JSON (content-type: application/json)' });
    }
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_ADMIN_BODY_BYTES) return json(413, { error: `the body exceeds ${MAX_ADMIN_BODY_BYTES} bytes` });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(400, { error: 'invalid JSON body' });
    }
    try {
      return json(201, await createUserKey(options.db, body as AdminKeyInput));
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'AdminInputError') return json(400, { error: (error as Error).message });
      if (name === 'ConflictError') return json(409, { error: (error as Error).message });
      throw error;
    }
  }

  return {
    async handle(request, peer) {
      const started = performance.now();
      let response: Response;
      try {
        response = await respond(request, peer);
      } catch (error) {
        log(`error adminCreateKey: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        response = json(500, { error: 'internal server error' });
      }
      log(`${request.method} ${ADMIN_KEYS_PATH} ${response.status} ${Math.round(performance.now() - started)}ms`);
      return response;
    },
  };
}

/** What a running server advertises in its lock file. */
export interface AdminEndpoint {
  url: string;
  adminToken: string;
}

/** Asks the running server for a key; throws AdminInputError for its 4xx answers. */
export async function requestKeyFromServer(endpoint: AdminEndpoint, input: AdminKeyInput): Promise<CreatedUserKey> {
  const response = await fetch(new URL(ADMIN_KEYS_PATH, endpoint.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json().catch(() => ({}))) as Partial<CreatedUserKey> & { error?: string };
  if (response.status === 201) return { user_id: body.user_id!, email: body.email!, key_id: body.key_id!, key: body.key! };
  const message = `the running server at ${endpoint.url} refused: ${body.error ?? `HTTP ${response.status}`}`;
  if (response.status < 500) throw new AdminInputError(message);
  throw new Error(message);
}
