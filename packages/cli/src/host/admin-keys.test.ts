// The admin key route and key creation on a real, migrated store (PGlite; Postgres too when the
// test infrastructure provides TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService, createTestDatabase, MAX_KEYS_PER_USER, testPostgresUrl, type TestDatabase, type TestStoreKind } from '@codehealth/service';
import { AdminInputError, createAdminKeysRoute, createUserKey, isLoopback } from './admin-keys.js';

const TOKEN = 'admin-token-for-tests-0123456789abcdefghijk';
const STORES: TestStoreKind[] = testPostgresUrl() ? ['pglite', 'postgres'] : ['pglite'];
if (!testPostgresUrl()) console.warn('admin keys on real Postgres skipped: TEST_DATABASE_URL is not set');

it('knows loopback addresses, IPv4-mapped ones included', () => {
  for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
  for (const address of [undefined, '', '10.0.0.1', '::ffff:10.0.0.1', '0.0.0.0', '::', '128.0.0.1', 'localhost']) expect(isLoopback(address)).toBe(false);
});

describe.each(STORES)('admin keys [%s]', (store) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(store);
  });
  afterAll(() => test?.dispose());

  const users = async (email: string) =>
    test.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email]).then((rows) => rows[0]!.n);

  it('creates the user once and a working key each time', async () => {
    const first = await createUserKey(test.db, { email: ' Grace@Example.com ', name: 'laptop' });
    expect(Object.keys(first)).toEqual(['user_id', 'email', 'key_id', 'key']);
    expect(first.email).toBe('Grace@Example.com');
    const second = await createUserKey(test.db, { email: 'grace@example.COM' });
    expect(second.user_id).toBe(first.user_id);
    expect(second.key_id).not.toBe(first.key_id);
    expect(await users('grace@example.com')).toBe(1);
    const actor = await new ApiKeyService(test.db).authenticate(second.key);
    expect(actor).toMatchObject({ userId: first.user_id, keyId: second.key_id });
    const names = await test.db.query<{ name: string }>('SELECT name FROM api_keys WHERE user_id = $1 ORDER BY created_at', [first.user_id]);
    expect(names.map((row) => row.name)).toEqual(['laptop', 'cli']);
  });

  it('refuses an invalid email or label before writing anything', async () => {
    await expect(createUserKey(test.db, { email: 'not-an-email' })).rejects.toThrow(new AdminInputError('email: not a valid email address'));
    await expect(createUserKey(test.db, { email: 'ok@example.com', name: '  ' })).rejects.toThrow(AdminInputError);
    await expect(createUserKey(test.db, { email: 'ok@example.com', name: 'lap\u0000top' })).rejects.toThrow(
      new AdminInputError('name: must not contain the NUL character (\\u0000)'),
    );
    expect(await users('ok@example.com')).toBe(0);
  });

  describe('POST /admin/keys', () => {
    const lines: string[] = [];
    const route = () => createAdminKeysRoute({ db: test.db, token: TOKEN, log: (line) => lines.push(line) });
    const call = (body: unknown, options: { peer?: string; token?: string; method?: string; headers?: Record<string, string> } = {}) =>
      route().handle(
        new Request('http://127.0.0.1:8080/admin/keys', {
          method: options.method ?? 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
            ...options.headers,
          },
          body: options.method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        }),
        'peer' in options ? options.peer : '127.0.0.1',
      );

    it('creates a key for a loopback caller holding the admin token', async () => {
      const response = await call({ email: 'linus@example.com', name: 'ci' }, { token: TOKEN, peer: '::1' });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { user_id: string; key: string };
      expect(Object.keys(body)).toEqual(['user_id', 'email', 'key_id', 'key']);
      expect((await new ApiKeyService(test.db).authenticate(body.key)).userId).toBe(body.user_id);
      expect(lines.at(-1)).toMatch(/^POST \/admin\/keys 201 \d+ms$/);
      expect(lines.join('\n')).not.toContain(TOKEN);
    });

    it('is forbidden to other hosts and to proxied requests, whatever the token', async () => {
      for (const peer of ['10.1.2.3', '::ffff:192.168.0.9', undefined]) {
        const response = await call({ email: 'eve@example.com' }, { token: TOKEN, peer });
        expect(response.status).toBe(403);
        expect(await response.json()).toEqual({ error: 'forbidden' });
      }
      for (const header of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }] as Record<string, string>[]) {
        expect((await call({ email: 'eve@example.com' }, { token: TOKEN, headers: header })).status).toBe(403);
      }
      expect(await users('eve@example.com')).toBe(0);
    });

    it('wants the admin token: missing or wrong is 401', async () => {
      for (const token of [undefined, 'wrong', `${TOKEN}x`, TOKEN.slice(1)]) {
        const response = await call({ email: 'eve@example.com' }, { token });
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ error: 'unauthorized' });
      }
    });

    it('answers bad requests with 4xx JSON errors', async () => {
      expect((await call(undefined, { token: TOKEN, method: 'GET' })).status).toBe(405);
      const notJson = await call('email=x', { token: TOKEN, headers: { 'content-type': 'text/plain' } });
      expect(notJson.status).toBe(415);
      const malformed = await call('{"email":', { token: TOKEN });
      expect([malformed.status, await malformed.json()]).toEqual([400, { error: 'invalid JSON body' }]);
      const invalid = await call({ email: 'nope' }, { token: TOKEN });
      expect([invalid.status, await invalid.json()]).toEqual([400, { error: 'email: not a valid email address' }]);
      const unknown = await call({ email: 'a@example.com', role: 'admin' }, { token: TOKEN });
      expect(unknown.status).toBe(400);
      expect((await call({ email: `${'a'.repeat(20_000)}@example.com` }, { token: TOKEN })).status).toBe(413);
    });

    it('reports a user at the key limit as 409, creating nothing', async () => {
      const first = await createUserKey(test.db, { email: 'busy@example.com' });
      for (let i = 1; i < MAX_KEYS_PER_USER; i++) await createUserKey(test.db, { email: 'busy@example.com' });
      const response = await call({ email: 'busy@example.com' }, { token: TOKEN });
      expect(response.status).toBe(409);
      const [{ n }] = await test.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [first.user_id]);
      expect(n).toBe(MAX_KEYS_PER_USER);
    });
  });
});
