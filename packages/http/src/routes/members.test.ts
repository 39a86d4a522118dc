import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InvitationService } from '@codehealth/service';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 86_400_000;

describeStores('members and invitations API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    outsider = await api.createUser();
  });
  afterAll(() => api?.close());

  const invite = (by: TestUser, projectId: string, body: unknown) => api.request('POST', `/api/v1/projects/${projectId}/invitations`, { key: by.key, body });
  const accept = (by: TestUser | undefined, invitationId: string) => api.request('POST', `/api/v1/invitations/${invitationId}/accept`, { key: by?.key });
  const members = async (projectId: string, by: TestUser = owner) =>
    (await api.request('GET', `/api/v1/projects/${projectId}/members`, { key: by.key })).body as Array<{ user_id: string; role: string }>;
  const roleOf = async (projectId: string, user: TestUser) => (await members(projectId)).find((m) => m.user_id === user.userId)?.role;
  const statusOf = async (invitationId: string) =>
    (await api.db.query<{ status: string }>('SELECT status FROM invitations WHERE id = $1', [invitationId]))[0]?.status;

  /** A new user who joined `projectId` through an invitation with `role`. */
  async function join(projectId: string, role: 'owner' | 'member' = 'member'): Promise<TestUser> {
    const user = await api.createUser();
    const invited = await invite(owner, projectId, { email: user.email, role });
    expect(invited.status).toBe(201);
    expect((await accept(user, invited.body.id)).status).toBe(200);
    return user;
  }

  it('lists members with every spec field, the creator as owner', async () => {
    const projectId = await api.createProject(owner);
    const listed = await api.request('GET', `/api/v1/projects/${projectId}/members`, { key: owner.key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: expect.stringMatching(UUID), project_id: projectId, user_id: owner.userId, role: 'owner', created_at: expect.stringMatching(/Z$/) },
    ]);
    const member = await join(projectId);
    const again = await api.request('GET', `/api/v1/projects/${projectId}/members`, { key: member.key });
    expect(again.status).toBe(200);
    expect(again.body.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
      [owner.userId, 'owner'],
      [member.userId, 'member'],
    ]);
  });

  it('creates a pending invitation with every spec field, role member by default, valid for 7 days', async () => {
    const projectId = await api.createProject(owner);
    const created = await invite(owner, projectId, { email: 'New.Person@Example.test' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      project_id: projectId,
      email: 'New.Person@Example.test',
      role: 'member',
      invited_by_user_id: owner.userId,
      status: 'pending',
      expires_at: expect.stringMatching(/Z$/),
      created_at: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(7 * DAY_MS);
    expect(Math.abs(Date.parse(created.body.created_at) - Date.now())).toBeLessThan(60_000);
    const asOwner = await invite(owner, projectId, { email: 'boss@example.test', role: 'owner' });
    expect(asOwner).toMatchObject({ status: 201, body: { role: 'owner', status: 'pending' } });
  });

  it('lets a member invite members but not owners', async () => {
    const projectId = await api.createProject(owner);
    const member = await join(projectId);
    const ok = await invite(member, projectId, { email: 'friend@example.test', role: 'member' });
    expect(ok).toMatchObject({ status: 201, body: { invited_by_user_id: member.userId, role: 'member' } });
    expect(await invite(member, projectId, { email: 'friend2@example.test', role: 'owner' })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await invite(outsider, projectId, { email: 'x@example.test' })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
  });

  it('validates the invitation body with 400s', async () => {
    const projectId = await api.createProject(owner);
    const bad = await invite(owner, projectId, { email: 'not-an-email' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid request body: email: email must be a valid email address' } });
    expect((await invite(owner, projectId, {})).body.error).toMatch(/^invalid request body: email/);
    expect((await invite(owner, projectId, { email: 'a@example.test', role: 'admin' })).body.error).toMatch(/^invalid request body: role/);
    expect((await invite(owner, projectId, { email: 'a@example.test', team: 'x' })).body.error).toMatch(/team/);
    expect((await invite(owner, projectId, { email: 42 })).status).toBe(400);
    const unknownProject = await invite(owner, randomUUID(), { email: 'a@example.test' });
    expect(unknownProject).toMatchObject({ status: 404, body: { error: 'project not found' } });
    const count = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM invitations WHERE project_id = $1', [projectId]);
    expect(count[0]!.n).toBe(0);
  });

  it('refuses to invite an existing member (case-insensitively) with 409', async () => {
    const projectId = await api.createProject(owner);
    const member = await join(projectId);
    const again = await invite(owner, projectId, { email: member.email.toUpperCase() });
    expect(again).toMatchObject({ status: 409, body: { error: `${member.email.toUpperCase()} is already a member of this project` } });
    expect((await invite(owner, projectId, { email: owner.email })).status).toBe(409);
  });

  it('supersedes a pending invitation to the same address: the old one is revoked and cannot be accepted', async () => {
    const projectId = await api.createProject(owner);
    const user = await api.createUser();
    const first = await invite(owner, projectId, { email: user.email, role: 'member' });
    const second = await invite(owner, projectId, { email: user.email.toUpperCase(), role: 'owner' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await statusOf(first.body.id)).toBe('revoked');
    expect(await statusOf(second.body.id)).toBe('pending');
    expect(await accept(user, first.body.id)).toMatchObject({
      status: 409,
      body: { error: 'invitation was superseded by a newer invitation to the same address' },
    });
    expect(await accept(user, second.body.id)).toMatchObject({ status: 200, body: { role: 'owner' } });
    // An invitation to another project is independent.
    const otherProject = await api.createProject(owner);
    const elsewhere = await invite(owner, otherProject, { email: 'solo@example.test' });
    await invite(owner, projectId, { email: 'solo@example.test' });
    expect(await statusOf(elsewhere.body.id)).toBe('pending');
  });

  it("accepts with the invited user's key (email case-insensitive): member with the invited role, status accepted", async () => {
    const projectId = await api.createProject(owner);
    const user = await api.createUser(`Mixed.Case-${Date.now()}@Example.test`);
    const invited = await invite(owner, projectId, { email: user.email.toLowerCase(), role: 'owner' });
    expect((await api.request('GET', `/api/v1/projects/${projectId}`, { key: user.key })).status).toBe(403);
    const accepted = await accept(user, invited.body.id);
    expect(accepted).toMatchObject({ status: 200 });
    expect(accepted.body).toEqual({ status: 'accepted', project_id: projectId, role: 'owner' });
    const project = await api.request('GET', `/api/v1/projects/${projectId}`, { key: user.key });
    expect(project).toMatchObject({ status: 200, body: { user_role: 'owner' } });
    expect(await roleOf(projectId, user)).toBe('owner');
    const [row] = await api.db.query<{ status: string; accepted_by_user_id: string; accepted_at: Date | null }>(
      'SELECT status, accepted_by_user_id, accepted_at FROM invitations WHERE id = $1',
      [invited.body.id],
    );
    expect(row).toMatchObject({ status: 'accepted', accepted_by_user_id: user.userId });
    expect(row!.accepted_at).not.toBeNull();
    expect(await accept(user, invited.body.id)).toMatchObject({ status: 409, body: { error: 'invitation already accepted' } });
  });

  it('refuses acceptance by another user (403), unknown ids (404), bad ids (400) and no key (401)', async () => {
    const projectId = await api.createProject(owner);
    const invitee = await api.createUser();
    const invited = await invite(owner, projectId, { email: invitee.email });
    expect(await accept(outsider, invited.body.id)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    // The inviting owner is not the invitee either.
    expect((await accept(owner, invited.body.id)).status).toBe(403);
    expect(await accept(invitee, randomUUID())).toMatchObject({ status: 404, body: { error: 'invitation not found' } });
    expect(await accept(invitee, 'nope')).toMatchObject({ status: 400, body: { error: 'invalid path parameter: invitationId: invitationId must be a UUID' } });
    expect(await accept(undefined, invited.body.id)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await statusOf(invited.body.id)).toBe('pending');
    expect(await roleOf(projectId, outsider)).toBeUndefined();
    expect((await accept(invitee, invited.body.id)).status).toBe(200);
  });

  it('refuses an expired invitation with 409 and records it as expired; re-inviting renews', async () => {
    const projectId = await api.createProject(owner);
    const user = await api.createUser();
    const invited = await invite(owner, projectId, { email: user.email });
    await api.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [invited.body.id]);
    // Another user is still refused as such, without learning the invitation's state.
    expect((await accept(outsider, invited.body.id)).status).toBe(403);
    expect(await accept(user, invited.body.id)).toMatchObject({ status: 409, body: { error: 'invitation expired' } });
    expect(await statusOf(invited.body.id)).toBe('expired');
    expect(await roleOf(projectId, user)).toBeUndefined();
    expect((await accept(user, invited.body.id)).body).toEqual({ error: 'invitation expired' });

    const stale = await invite(owner, projectId, { email: 'stale@example.test' });
    await api.db.query("UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = $1", [stale.body.id]);
    const renewed = await invite(owner, projectId, { email: 'stale@example.test' });
    expect(await statusOf(stale.body.id)).toBe('expired');
    expect(await statusOf(renewed.body.id)).toBe('pending');
    expect((await accept(user, (await invite(owner, projectId, { email: user.email })).body.id)).status).toBe(200);
  });

  it('never lowers an existing role when accepting', async () => {
    const projectId = await api.createProject(owner);
    const user = await join(projectId, 'owner');
    // An invitation made before the user joined (inserted directly: the API refuses to invite members).
    const id = randomUUID();
    await api.db.query(
      `INSERT INTO invitations (id, project_id, email, role, invited_by_user_id, expires_at)
       VALUES ($1, $2, $3, 'member', $4, now() + interval '1 day')`,
      [id, projectId, user.email, owner.userId],
    );
    expect((await accept(user, id)).body).toEqual({ status: 'accepted', project_id: projectId, role: 'owner' });
    expect(await roleOf(projectId, user)).toBe('owner');
  });

  it('changes a role (owners only) and answers {status: "updated"}', async () => {
    const projectId = await api.createProject(owner);
    const member = await join(projectId);
    const path = `/api/v1/projects/${projectId}/members/${member.userId}`;
    expect(await api.request('PATCH', path, { key: member.key, body: { role: 'owner' } })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await roleOf(projectId, member)).toBe('member');
    const promoted = await api.request('PATCH', path, { key: owner.key, body: { role: 'owner' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({ status: 'updated' });
    expect(await roleOf(projectId, member)).toBe('owner');
    expect((await api.request('PATCH', path, { key: owner.key, body: { role: 'owner' } })).body).toEqual({ status: 'updated' });
    // Now two owners: the first may step down.
    const stepDown = await api.request('PATCH', `/api/v1/projects/${projectId}/members/${owner.userId}`, { key: owner.key, body: { role: 'member' } });
    expect(stepDown).toMatchObject({ status: 200, body: { status: 'updated' } });
    expect(await roleOf(projectId, owner)).toBe('member');
    // Restore for later assertions.
    await api.request('PATCH', `/api/v1/projects/${projectId}/members/${owner.userId}`, { key: member.key, body: { role: 'owner' } });
    expect(await roleOf(projectId, owner)).toBe('owner');
  });

  it('refuses to demote the last owner (409), unknown members (404) and bad bodies (400)', async () => {
    const projectId = await api.createProject(owner);
    const member = await join(projectId);
    const self = `/api/v1/projects/${projectId}/members/${owner.userId}`;
    expect(await api.request('PATCH', self, { key: owner.key, body: { role: 'member' } })).toMatchObject({
      status: 409,
      body: { error: 'cannot demote the last owner of the project; make another member an owner first' },
    });
    expect(await roleOf(projectId, owner)).toBe('owner');
    expect(await api.request('PATCH', `/api/v1/projects/${projectId}/members/${outsider.userId}`, { key: owner.key, body: { role: 'owner' } })).toMatchObject({
      status: 404,
      body: { error: 'member not found' },
    });
    expect((await api.request('PATCH', `/api/v1/projects/${projectId}/members/${randomUUID()}`, { key: owner.key, body: { role: 'member' } })).status).toBe(
      404,
    );
    const path = `/api/v1/projects/${projectId}/members/${member.userId}`;
    expect((await api.request('PATCH', path, { key: owner.key, body: { role: 'admin' } })).body.error).toMatch(/^invalid request body: role/);
    expect((await api.request('PATCH', path, { key: owner.key, body: {} })).body.error).toMatch(/^invalid request body: role/);
    expect((await api.request('PATCH', path, { key: owner.key })).status).toBe(400);
    expect(await api.request('PATCH', `/api/v1/projects/${projectId}/members/xyz`, { key: owner.key, body: { role: 'member' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid path parameter: userId: userId must be a UUID' },
    });
  });

  it('removes members: owners anyone, members only themselves; never the last owner', async () => {
    const projectId = await api.createProject(owner);
    const a = await join(projectId);
    const b = await join(projectId);
    const remove = (by: TestUser, who: string) => api.request('DELETE', `/api/v1/projects/${projectId}/members/${who}`, { key: by.key });

    expect(await remove(a, b.userId)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await remove(a, owner.userId)).toMatchObject({ status: 403 });
    expect(await roleOf(projectId, b)).toBe('member');

    const left = await remove(a, a.userId);
    expect(left.status).toBe(204);
    expect(left.body).toBe('');
    expect(await roleOf(projectId, a)).toBeUndefined();
    expect(await api.request('GET', `/api/v1/projects/${projectId}`, { key: a.key })).toMatchObject({ status: 403 });

    expect((await remove(owner, b.userId)).status).toBe(204);
    expect(await remove(owner, b.userId)).toMatchObject({ status: 404, body: { error: 'member not found' } });
    expect(await remove(outsider, owner.userId)).toMatchObject({ status: 403, body: { error: 'forbidden' } });

    expect(await remove(owner, owner.userId)).toMatchObject({
      status: 409,
      body: { error: 'cannot remove the last owner of the project; make another member an owner first' },
    });
    const second = await join(projectId, 'owner');
    expect((await remove(second, owner.userId)).status).toBe(204);
    expect(await members(projectId, second)).toEqual([expect.objectContaining({ user_id: second.userId, role: 'owner' })]);
  });

  it('keeps one owner when two owners demote each other at the same time', async () => {
    // Several projects at once, calling the service directly so the two transactions overlap.
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const projectId = await api.createProject(owner);
        return { projectId, other: await join(projectId, 'owner') };
      }),
    );
    const actor = (user: TestUser) => ({ userId: user.userId, email: user.email });
    const outcomes = await Promise.all(
      pairs.flatMap(({ projectId, other }) => [
        api.services.members.updateRole(actor(owner), projectId, other.userId, { role: 'member' }).then(
          () => 'updated',
          (e: Error) => e.name,
        ),
        api.services.members.updateRole(actor(other), projectId, owner.userId, { role: 'member' }).then(
          () => 'updated',
          (e: Error) => e.name,
        ),
      ]),
    );
    for (const [i, { projectId }] of pairs.entries()) {
      // Whoever is second either is no longer an owner (403) or would demote the last owner (409).
      expect(outcomes.slice(2 * i, 2 * i + 2).sort()).toEqual([expect.stringMatching(/^(ForbiddenError|ConflictError)$/), 'updated']);
      const [owners] = await api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM project_members WHERE project_id = $1 AND role = 'owner'", [
        projectId,
      ]);
      expect(owners!.n).toBe(1);
    }
  });

  it('honours the invitation validity option and refuses a non-positive one', async () => {
    const projectId = await api.createProject(owner);
    const service = new InvitationService(api.db, 0.5);
    const created = await service.create({ userId: owner.userId, email: owner.email }, projectId, { email: 'half@example.test', role: 'member' });
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(DAY_MS / 2);
    expect(() => new InvitationService(api.db, 0)).toThrow(/invitationTtlDays/);
  });
});
