// The authorization matrix, read from the route table so that every route added later is covered:
// outsiders get 403 on every project route, plain members 403 on every owner-only route, and
// every authenticated route answers 401 without a valid key — all before the body is read.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, describeStores, type RequestOptions, type TestApi, type TestUser } from '../../../test/helpers/test-api.js';
import { fullPathOf, type RouteDefinition } from './route.js';
import { ALL_ROUTES } from './routes/index.js';

const label = (route: RouteDefinition) => `${route.method} ${fullPathOf(route)}`;
const projectRoutes = ALL_ROUTES.filter((route) => route.access);
const ownerRoutes = ALL_ROUTES.filter((route) => route.access === 'owner');
const keyRoutes = ALL_ROUTES.filter((route) => (route.auth ?? 'key') === 'key');

/** A concrete path: `{id}` is the project, `{number}` a PR number, any other parameter a fresh UUID. */
function pathOf(route: RouteDefinition, projectId: string): string {
  return fullPathOf(route).replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    if (name === 'id') return projectId;
    if (name === 'number') return '1';
    return randomUUID();
  });
}

describe('route table', () => {
  it('gives every route under /projects/{id} an access level, and only those', () => {
    const underProject = (route: RouteDefinition) => !route.root && /^\/projects\/\{id\}(\/|$)/.test(route.path);
    expect(ALL_ROUTES.filter((route) => underProject(route) && !route.access).map(label)).toEqual([]);
    // The central check reads the project from `{id}`: an access level elsewhere would check nothing.
    expect(projectRoutes.filter((route) => !underProject(route) || !route.params?.shape.id).map(label)).toEqual([]);
    expect(projectRoutes.filter((route) => (route.auth ?? 'key') !== 'key').map(label)).toEqual([]);
  });

  it('has the routes this matrix is about (so the loops below cannot pass empty)', () => {
    expect(projectRoutes.map(label)).toEqual(
      expect.arrayContaining(['GET /api/v1/projects/{id}', 'GET /api/v1/projects/{id}/members', 'POST /api/v1/projects/{id}/invitations']),
    );
    expect(ownerRoutes.map(label)).toEqual(expect.arrayContaining(['DELETE /api/v1/projects/{id}', 'PATCH /api/v1/projects/{id}/members/{userId}']));
    expect(keyRoutes.length).toBeGreaterThan(projectRoutes.length);
  });
});

describeStores('authorization matrix', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let projectId: string;
  let revokedKey: string;
  let countsBefore: Record<string, number>;

  /** Row counts of every table: refused requests must leave no trace. */
  async function tableCounts(): Promise<Record<string, number>> {
    const tables = await api.db.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
      counts[name] = row!.n;
    }
    return counts;
  }

  /** Sends the request a client would: a body of `{}` wherever the route declares one. */
  const send = (route: RouteDefinition, options: RequestOptions, project = projectId) =>
    api.request(route.method, pathOf(route, project), route.body ? { body: {}, ...options } : options);

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    member = await api.createUser();
    outsider = await api.createUser();
    projectId = await api.createProject(owner);
    const invited = await api.request('POST', `/api/v1/projects/${projectId}/invitations`, { key: owner.key, body: { email: member.email } });
    const accepted = await api.request('POST', `/api/v1/invitations/${invited.body.id}/accept`, { key: member.key });
    expect(accepted.body).toEqual({ status: 'accepted', project_id: projectId, role: 'member' });
    // The owner's own second key, revoked: refused for the revocation, not for a missing membership.
    const second = await api.services.apiKeys.create(owner.userId, { name: 'to revoke' });
    await api.services.apiKeys.revoke({ userId: owner.userId, email: owner.email }, second.id);
    revokedKey = second.key;
    countsBefore = await tableCounts();
  });
  afterAll(() => api?.close());

  it.each(projectRoutes.map((route) => [label(route), route] as const))('outsider gets 403 on %s', async (_, route) => {
    const response = await send(route, { key: outsider.key });
    expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: 'forbidden' } });
  });

  it.each(projectRoutes.map((route) => [label(route), route] as const))('unknown project gives 404 on %s', async (_, route) => {
    const response = await send(route, { key: outsider.key }, randomUUID());
    expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { error: 'project not found' } });
  });

  it.each(ownerRoutes.map((route) => [label(route), route] as const))('plain member gets 403 on owner-only %s', async (_, route) => {
    const response = await send(route, { key: member.key });
    expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: 'forbidden' } });
  });

  it.each(keyRoutes.map((route) => [label(route), route] as const))('no, revoked or malformed key gives 401 on %s', async (_, route) => {
    const attempts: Array<[string, Record<string, string>]> = [
      ['no key', {}],
      ['revoked key', { authorization: `Bearer ${revokedKey}` }],
      ['empty bearer', { authorization: 'Bearer' }],
      ['basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['valid key, wrong scheme', { authorization: `Token ${owner.key}` }],
      ['two tokens', { authorization: `Bearer ${owner.key} ${owner.key}` }],
      ['not a key', { authorization: 'Bearer chk_not-a-real-key-at-all' }],
    ];
    for (const [what, headers] of attempts) {
      const response = await send(route, { headers });
      expect({ what, status: response.status, body: response.body }).toEqual({ what, status: 401, body: { error: 'unauthorized' } });
    }
    const bare = await send(route, {});
    expect(bare.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refused requests changed nothing', async () => {
    expect(await tableCounts()).toEqual(countsBefore);
    const [project] = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM project_members WHERE project_id = $1', [projectId]);
    expect(project!.n).toBe(2);
  });
});
