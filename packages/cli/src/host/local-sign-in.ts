// The embedded server's one-time sign-in link: `npm start` prints
// http://127.0.0.1:8080/sign-in/local#code=…; the dashboard posts the code to POST /admin/sign-in,
// which answers once, to a loopback peer, with a new API key of the embedded owner
// (CODEHEALTH_OWNER_EMAIL). The code lives in the URL fragment, so it never reaches a server log.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '@codehealth/service';
import { createUserKey, isLoopback } from './admin-keys.js';

export const LOCAL_SIGN_IN_PATH = '/admin/sign-in';
export const DEFAULT_OWNER_EMAIL = 'owner@codehealth.localhost';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export interface LocalSignIn {
  /** The link to print (the code is in the fragment). */
  link(baseUrl: string): string;
  handle(request: Request, peer: string | undefined): Promise<Response>;
}

export function createLocalSignIn(options: { db: Database; ownerEmail: string; log?: (line: string) => void }): LocalSignIn {
  const code = randomBytes(24).toString('base64url');
  const expected = digest(code);
  let used = false;
  const log = options.log ?? (() => {});

  async function respond(request: Request, peer: string | undefined): Promise<Response> {
    if (!isLoopback(peer) || request.headers.has('x-forwarded-for') || request.headers.has('forwarded')) return json(403, { error: 'forbidden' });
    if (request.method !== 'POST') return json(405, { error: `method ${request.method} is not allowed here` });
    let body: unknown;
    try {
      body = JSON.parse((await request.text()).slice(0, 4096));
    } catch {
      return json(400, { error: 'invalid JSON body' });
    }
    const given = (body as { code?: unknown } | null)?.code;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      return json(401, { error: 'This sign-in link is not valid. Copy the link the running server printed, or sign in with an API key.' });
    }
    if (used) return json(410, { error: 'This sign-in link was already used. Restart the server for a new one, or sign in with an API key.' });
    used = true;
    const created = await createUserKey(options.db, { email: options.ownerEmail, name: 'dashboard' }, 'created by the one-time sign-in link of npm start');
    return json(201, { key: created.key, email: created.email });
  }

  return {
    link: (baseUrl) => `${baseUrl}/sign-in/local#code=${code}`,
    async handle(request, peer) {
      let response: Response;
      try {
        response = await respond(request, peer);
      } catch (error) {
        log(`error localSignIn: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        response = json(500, { error: 'internal server error' });
      }
      log(`${request.method} ${LOCAL_SIGN_IN_PATH} ${response.status}`);
      return response;
    },
  };
}
