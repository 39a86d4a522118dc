// The embedded server's one-time sign-in link, on a real migrated store (PGlite).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiKeyService, createTestDatabase, type TestDatabase } from '@codehealth/service';
import { createLocalSignIn } from './local-sign-in.js';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase('pglite');
});
afterAll(() => test?.dispose());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1:8080/admin/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const codeOf = (link: string) => new URL(link).hash.slice('#code='.length);

it('gives a loopback caller with the code one key of the owner, once', async () => {
  const signIn = createLocalSignIn({ db: test.db, ownerEmail: 'owner@codehealth.localhost' });
  const link = signIn.link('http://127.0.0.1:8080');
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8080\/sign-in\/local#code=[\w-]{32}$/);
  const code = codeOf(link);

  expect((await signIn.handle(post({ code: 'x'.repeat(32) }), '127.0.0.1')).status).toBe(401);
  expect((await signIn.handle(post({ code }), '10.0.0.7')).status).toBe(403);
  expect((await signIn.handle(post({ code }, { 'x-forwarded-for': '203.0.113.9' }), '127.0.0.1')).status).toBe(403);
  expect((await signIn.handle(new Request('http://127.0.0.1:8080/admin/sign-in'), '127.0.0.1')).status).toBe(405);

  const first = await signIn.handle(post({ code }), '::1');
  expect(first.status).toBe(201);
  const body = (await first.json()) as { key: string; email: string };
  expect(body.email).toBe('owner@codehealth.localhost');
  const actor = await new ApiKeyService(test.db).authenticate(body.key);
  const owners = await test.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', ['owner@codehealth.localhost']);
  expect(actor?.userId).toBe(owners[0]!.id);
  const keys = await test.db.query<{ name: string; description: string }>('SELECT name, description FROM api_keys WHERE user_id = $1', [owners[0]!.id]);
  expect(keys).toEqual([{ name: 'dashboard', description: 'created by the one-time sign-in link of npm start' }]);

  const again = await signIn.handle(post({ code }), '127.0.0.1');
  expect(again.status).toBe(410);
  expect(((await again.json()) as { error: string }).error).toMatch(/already used/);
});

it('draws a new code for each server start', () => {
  const a = createLocalSignIn({ db: test.db, ownerEmail: 'owner@codehealth.localhost' });
  const b = createLocalSignIn({ db: test.db, ownerEmail: 'owner@codehealth.localhost' });
  expect(codeOf(a.link('http://h'))).not.toBe(codeOf(b.link('http://h')));
});
