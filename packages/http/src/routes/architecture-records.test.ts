import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, type ConventionPattern } from '@codehealth/engine';
import { ArchitectureService } from '@codehealth/service';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

let detected: ConventionPattern[];

beforeAll(async () => {
  // Conventions as the consistency analyzers publish them for this repository's HTTP package.
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  detected = (await engine.analyze(fileURLToPath(new URL('..', import.meta.url)))).conventions;
});

const UNKNOWN = '7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11';

describeStores('architecture conventions and ADRs API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let member: TestUser;
  let projectId: string;
  const base = () => `/api/v1/projects/${projectId}/architecture`;

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    member = await api.createUser();
    projectId = await api.createProject(owner);
    await api.db.query("INSERT INTO project_members (id, project_id, user_id, role) VALUES ($1, $2, $3, 'member')", [randomUUID(), projectId, member.userId]);
  });
  afterAll(() => api?.close());

  it('lists the conventions detected by a real engine run and lets members accept or reject them', async () => {
    expect((await api.request('GET', `${base()}/conventions`, { key: member.key })).body).toEqual([]);
    expect(detected.length).toBeGreaterThan(3);
    expect(await api.services.architecture.saveDetectedConventions(projectId, detected)).toBe(detected.length);
    const listed = await api.request('GET', `${base()}/conventions`, { key: member.key });
    expect(listed.status).toBe(200);
    expect(listed.body.map((c: { name: string }) => c.name)).toEqual(detected.map((p) => p.name).sort());
    const naming = listed.body.find((c: { name: string }) => c.name === 'function-naming');
    const pattern = detected.find((p) => p.name === 'function-naming')!;
    expect(naming).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      project_id: projectId,
      name: 'function-naming',
      description: `Naming style of functions: ${pattern.dominantValue} in ${pattern.consistency}% of ${pattern.totalCount} occurrences.`,
      dominant_value: pattern.dominantValue,
      consistency: pattern.consistency,
      total_count: pattern.totalCount,
      deviation_count: pattern.deviationCount,
      status: 'detected',
      examples: Object.entries(pattern.values!)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([value, count]) => ({ value, count })),
      detected_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const accepted = await api.request('PATCH', `${base()}/conventions/${naming.id}`, { key: member.key, body: { status: 'accepted' } });
    expect(accepted).toMatchObject({ status: 200, body: { id: naming.id, status: 'accepted', total_count: pattern.totalCount } });
    const only = await api.request('GET', `${base()}/conventions?status=accepted`, { key: member.key });
    expect(only.body.map((c: { name: string }) => c.name)).toEqual(['function-naming']);
    expect((await api.request('GET', `${base()}/conventions?status=maybe`, { key: member.key })).status).toBe(400);
  });

  it('keeps user decisions across re-detection and drops undecided conventions that disappeared', async () => {
    const project = await api.createProject(owner);
    const url = `/api/v1/projects/${project}/architecture/conventions`;
    const pattern = (name: string, values: Record<string, number>): ConventionPattern => {
      const counts = Object.values(values);
      const total = counts.reduce((a, b) => a + b, 0);
      const top = Math.max(...counts);
      return {
        name,
        dominantValue: Object.keys(values).find((k) => values[k] === top)!,
        totalCount: total,
        deviationCount: total - top,
        consistency: (100 * top) / total,
        values,
      };
    };
    await api.services.architecture.saveDetectedConventions(project, [
      pattern('function-naming', { camelCase: 9, snake_case: 1 }),
      pattern('file-naming', { 'kebab-case': 4 }),
      pattern('module-system', { ESM: 5 }),
    ]);
    const first = (await api.request('GET', url, { key: owner.key })).body as Array<{ id: string; name: string }>;
    const id = (name: string) => first.find((c) => c.name === name)!.id;
    await api.request('PATCH', `${url}/${id('function-naming')}`, { key: owner.key, body: { status: 'accepted' } });
    await api.request('PATCH', `${url}/${id('file-naming')}`, { key: owner.key, body: { status: 'rejected' } });
    // Two repositories report function-naming: their counts are added.
    await api.services.architecture.saveDetectedConventions(project, [
      pattern('function-naming', { camelCase: 10, snake_case: 2 }),
      pattern('function-naming', { camelCase: 5, PascalCase: 3 }),
    ]);
    const after = (await api.request('GET', url, { key: owner.key })).body;
    expect(after.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
      ['file-naming', 'rejected'],
      ['function-naming', 'accepted'],
    ]);
    expect(after[1]).toMatchObject({
      id: id('function-naming'),
      dominant_value: 'camelCase',
      total_count: 20,
      deviation_count: 5,
      consistency: 75,
      examples: [
        { value: 'camelCase', count: 15 },
        { value: 'PascalCase', count: 3 },
        { value: 'snake_case', count: 2 },
      ],
    });
    expect(after[0]).toMatchObject({ id: id('file-naming'), total_count: 4 });
  });

  it('validates convention updates', async () => {
    const [convention] = (await api.request('GET', `${base()}/conventions`, { key: owner.key })).body;
    const path = `${base()}/conventions/${convention.id}`;
    expect((await api.request('PATCH', path, { key: owner.key, body: { status: 'approved' } })).status).toBe(400);
    expect((await api.request('PATCH', path, { key: owner.key, body: {} })).body.error).toMatch(/^invalid request body: status/);
    expect((await api.request('PATCH', path, { key: owner.key, body: { status: 'accepted', name: 'x' } })).status).toBe(400);
    expect((await api.request('PATCH', path, { key: owner.key })).status).toBe(400);
    expect(await api.request('PATCH', `${base()}/conventions/${UNKNOWN}`, { key: owner.key, body: { status: 'rejected' } })).toMatchObject({
      status: 404,
      body: { error: 'convention not found' },
    });
    const other = await api.createProject(owner);
    expect(
      (await api.request('PATCH', `/api/v1/projects/${other}/architecture/conventions/${convention.id}`, { key: owner.key, body: { status: 'rejected' } }))
        .status,
    ).toBe(404);
    const back = await api.request('PATCH', path, { key: owner.key, body: { status: 'detected' } });
    expect(back.body.status).toBe('detected');
  });

  it('queues a convention detection once a repository is linked; 503 when the workflow engine is down', async () => {
    const project = await api.createProject(owner);
    const url = `/api/v1/projects/${project}/architecture/conventions/detect`;
    expect(await api.request('POST', url, { key: owner.key })).toMatchObject({
      status: 409,
      body: { error: 'link a repository to the project before detecting conventions' },
    });
    const repo = randomUUID();
    await api.db.query(`INSERT INTO repositories (id, provider, owner, name, full_name, url, clone_url) VALUES ($1, 'local', 'a', 'b', 'a/b', $2, $2)`, [
      repo,
      `file:///tmp/${repo}`,
    ]);
    await api.db.query('INSERT INTO project_repositories (project_id, repository_id) VALUES ($1, $2)', [project, repo]);
    const queued = await api.request('POST', url, { key: owner.key });
    expect(queued.status).toBe(201);
    expect(queued.body).toEqual({ status: 'queued', workflow_id: expect.stringMatching(/^convention-detection-/) });
    const [job] = await api.db.query<{ kind: string; input: unknown }>('SELECT kind, input FROM jobs WHERE workflow_id = $1', [queued.body.workflow_id]);
    expect(job).toEqual({ kind: 'convention-detection', input: { projectId: project } });
    const down = new ArchitectureService(api.db, api.services.access, { start: () => Promise.reject(new Error('connection refused')) });
    const actor = { userId: owner.userId, email: owner.email };
    await expect(down.detectConventions(actor, project)).rejects.toMatchObject({
      name: 'UnavailableError',
      message: 'the workflow engine is unavailable; try again later',
    });
  });

  it('creates ADRs numbered per project, with defaults, and lists them by number', async () => {
    const created = await api.request('POST', `${base()}/adrs`, { key: member.key, body: { title: '  Use Postgres  ' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      project_id: projectId,
      number: 1,
      title: 'Use Postgres',
      status: 'proposed',
      context: '',
      decision: '',
      consequences: '',
      superseded_by: null,
      created_by_user_id: member.userId,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const full = await api.request('POST', `${base()}/adrs`, {
      key: owner.key,
      body: { title: 'Embed PGlite', context: 'newcomers', decision: 'PGlite by default', consequences: 'one process', status: 'accepted' },
    });
    expect(full.body).toMatchObject({ number: 2, status: 'accepted', context: 'newcomers', decision: 'PGlite by default', consequences: 'one process' });
    // Numbers are per project.
    const other = await api.createProject(owner);
    expect((await api.request('POST', `/api/v1/projects/${other}/architecture/adrs`, { key: owner.key, body: { title: 'Elsewhere' } })).body.number).toBe(1);
    const list = await api.request('GET', `${base()}/adrs`, { key: member.key });
    expect(list.body).toMatchObject({ total_count: 2, limit: 20, offset: 0 });
    expect(list.body.items.map((a: { number: number }) => a.number)).toEqual([1, 2]);
    const accepted = await api.request('GET', `${base()}/adrs?status=accepted&limit=1`, { key: member.key });
    expect(accepted.body).toMatchObject({ total_count: 1, limit: 1, items: [{ number: 2 }] });
    expect(await api.request('GET', `${base()}/adrs/${created.body.id}`, { key: member.key })).toMatchObject({ status: 200, body: created.body });
  });

  it('numbers concurrent creations 1, 2, 3, ... without a gap or a duplicate', async () => {
    const project = await api.createProject(owner);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.request('POST', `/api/v1/projects/${project}/architecture/adrs`, { key: owner.key, body: { title: `ADR ${i}` } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(responses.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('refuses invalid ADR input with 400 and unknown ADRs with 404', async () => {
    const post = (body: unknown) => api.request('POST', `${base()}/adrs`, { key: owner.key, body });
    expect((await post({})).body.error).toMatch(/^invalid request body: title/);
    expect((await post({ title: '   ' })).status).toBe(400);
    expect((await post({ title: 'x'.repeat(301) })).status).toBe(400);
    expect((await post({ title: 'x', status: 'done' })).status).toBe(400);
    expect((await post({ title: 'x', number: 7 })).status).toBe(400);
    expect((await post({ title: 'x', superseded_by: 'abc' })).status).toBe(400);
    expect((await post({ title: 'x', status: 'superseded' })).body).toEqual({
      error: 'status superseded requires superseded_by: the id of the ADR that replaces this one',
    });
    expect((await post({ title: 'x', superseded_by: UNKNOWN })).body).toEqual({ error: 'superseded_by is allowed only with status superseded' });
    expect(await api.request('GET', `${base()}/adrs/${UNKNOWN}`, { key: owner.key })).toMatchObject({ status: 404, body: { error: 'ADR not found' } });
    expect((await api.request('PATCH', `${base()}/adrs/${UNKNOWN}`, { key: owner.key, body: { title: 'y' } })).status).toBe(404);
    expect((await api.request('GET', `${base()}/adrs?limit=0`, { key: owner.key })).status).toBe(400);
  });

  it('changes only the provided fields and follows the ADR life cycle', async () => {
    const post = async (body: Record<string, unknown>) => (await api.request('POST', `${base()}/adrs`, { key: owner.key, body })).body;
    const patch = (id: string, body: unknown) => api.request('PATCH', `${base()}/adrs/${id}`, { key: member.key, body });
    const adr = await post({ title: 'Queue in Postgres', context: 'no Redis' });
    const renamed = await patch(adr.id, { title: 'Jobs in Postgres' });
    expect(renamed.body).toMatchObject({ title: 'Jobs in Postgres', context: 'no Redis', status: 'proposed', number: adr.number });
    expect(Date.parse(renamed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(adr.updated_at));
    expect((await patch(adr.id, { status: 'accepted' })).body.status).toBe('accepted');
    expect(await patch(adr.id, { status: 'proposed' })).toMatchObject({
      status: 409,
      body: { error: 'an ADR cannot move from accepted to proposed (allowed: deprecated, superseded)' },
    });
    expect((await patch(adr.id, { superseded_by: adr.id })).body).toEqual({ error: 'superseded_by is allowed only with status superseded' });
    expect((await patch(adr.id, { status: 'superseded' })).status).toBe(400);
    expect((await patch(adr.id, { status: 'superseded', superseded_by: adr.id })).body).toEqual({ error: 'an ADR cannot supersede itself' });
    const foreignProject = await api.createProject(owner);
    const foreign = (await api.request('POST', `/api/v1/projects/${foreignProject}/architecture/adrs`, { key: owner.key, body: { title: 'f' } })).body;
    expect((await patch(adr.id, { status: 'superseded', superseded_by: foreign.id })).body).toEqual({
      error: 'superseded_by must be the id of an ADR of the same project',
    });
    const rejected = await post({ title: 'Use Kafka', status: 'rejected' });
    expect((await patch(adr.id, { status: 'superseded', superseded_by: rejected.id })).body).toEqual({
      error: 'superseded_by must name a proposed or accepted ADR; that one is rejected',
    });
    const successor = await post({ title: 'Temporal for jobs' });
    const superseded = await patch(adr.id, { status: 'superseded', superseded_by: successor.id });
    expect(superseded.body).toMatchObject({ status: 'superseded', superseded_by: successor.id });
    // The replacement can be re-pointed; leaving superseded is refused: it is final.
    const third = await post({ title: 'Temporal, self-hosted' });
    expect((await patch(adr.id, { superseded_by: third.id })).body.superseded_by).toBe(third.id);
    expect((await patch(adr.id, { superseded_by: null })).status).toBe(400);
    expect(await patch(adr.id, { status: 'accepted' })).toMatchObject({
      status: 409,
      body: { error: 'an ADR cannot move from superseded to accepted (superseded is final)' },
    });
    // Editing text of a superseded ADR keeps its replacement.
    expect((await patch(adr.id, { consequences: 'history' })).body).toMatchObject({ consequences: 'history', superseded_by: third.id });
    // A superseded ADR cannot replace another (no loops).
    expect((await patch(successor.id, { status: 'accepted' })).status).toBe(200);
    expect((await patch(successor.id, { status: 'superseded', superseded_by: adr.id })).status).toBe(400);
    // Rejected proposals may be proposed again; deprecated decisions accepted again.
    expect((await patch(rejected.id, { status: 'proposed' })).body.status).toBe('proposed');
    expect((await patch(successor.id, { status: 'deprecated' })).body.status).toBe('deprecated');
    expect((await patch(successor.id, { status: 'accepted' })).body.status).toBe('accepted');
  });
});
