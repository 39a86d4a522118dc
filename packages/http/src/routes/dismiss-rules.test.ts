import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';
import { addMember, analyseSnippetRepository, fingerprintOf, findingOf, LINES_INSERTED, recordRun, type AnalysedRuns } from '../fixtures/issue-runs.js';

type WireIssue = {
  id: string;
  rule_id: string;
  file_path: string;
  title: string;
  source: string;
  is_dismissed: boolean;
  is_new: boolean;
  context_id: string;
  anchor: { line_start: number };
};

describeStores('issue dismissal and dismiss rules API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let runs: AnalysedRuns;

  beforeAll(async () => {
    runs = await analyseSnippetRepository();
    api = await createTestApi({ store });
    [owner, member, outsider] = [await api.createUser(), await api.createUser(), await api.createUser()];
  });
  afterAll(() => api?.close());

  /** A project with the v1 assessment recorded; `member` belongs to it. */
  async function project() {
    const id = await api.createProject(owner);
    await addMember(api.db, id, member.userId);
    const first = await recordRun(api.db, id, runs.v1);
    const root = `/api/v1/projects/${id}/analysis`;
    const call = (method: string, path: string, body?: unknown) => api.request(method, `${root}${path}`, { key: member.key, body });
    const issues = async (query: string) => {
      const response = await call('GET', `/issues?limit=500&${query}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.issues as WireIssue[];
    };
    const one = async (query: string, rule: string, file = 'src/index.ts') => (await issues(query)).find((i) => i.rule_id === rule && i.file_path === file)!;
    const dismissed = async (query: string) => (await issues(`${query}&is_dismissed=true`)).map((i) => `${i.rule_id} ${i.file_path}`).sort();
    const rules = async () => (await call('GET', '/dismiss-rules')).body as Array<Record<string, any>>;
    return { id, first, call, issues, one, dismissed, rules };
  }

  it('dismisses an issue through a rule pinned to its identity, which survives a re-analysis with moved lines', async () => {
    const p = await project();
    const target = await p.one(`context_id=${p.first}`, 'security/command-injection');
    const answer = await p.call('POST', `/issues/${target.id}/dismiss`, { action: 'false_positive', reason: 'dir is validated upstream' });
    expect(answer).toMatchObject({ status: 200, body: { status: 'dismissed' } });
    expect((await p.call('GET', `/issues/${target.id}`)).body.is_dismissed).toBe(true);
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual(['security/command-injection src/index.ts']);
    const fingerprint = fingerprintOf(findingOf(runs.v1, target));
    expect(await p.rules()).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        source_type: target.source,
        rule_pattern: 'security/command-injection',
        secondary_pattern: `fingerprint:${fingerprint}`,
        scope: 'file',
        file_path: 'src/index.ts',
        action: 'false_positive',
        reason: 'dir is validated upstream',
        match_count: 0,
        created_at: expect.stringMatching(/Z$/),
      },
    ]);

    const second = await recordRun(api.db, p.id, runs.v2, { baseline: [p.first] });
    const copy = await p.one('', 'security/command-injection');
    expect(copy.context_id).toBe(second);
    expect(copy.id).not.toBe(target.id);
    expect(copy.anchor.line_start).toBe(target.anchor.line_start + LINES_INSERTED);
    expect(fingerprintOf(findingOf(runs.v2, copy))).toBe(fingerprint);
    expect(copy).toMatchObject({ is_new: false, is_dismissed: true });
    expect(await p.dismissed('')).toEqual(['security/command-injection src/index.ts']);
    expect((await p.issues('is_dismissed=false')).length).toBe(runs.v2.length - 1);
    expect((await p.call('GET', '/issues/stats')).body).toMatchObject({ total: runs.v2.length, dismissed: 1 });
    expect((await p.rules())[0]).toMatchObject({ match_count: 1 });

    // Dismissing again updates the pinned rule (given fields only) rather than adding one.
    expect((await p.call('POST', `/issues/${copy.id}/dismiss`, { reason: 'still fine' })).status).toBe(200);
    expect(await p.rules()).toEqual([expect.objectContaining({ action: 'false_positive', reason: 'still fine' })]);
  });

  it('restores an issue in every run, even under an older broad rule, and a later dismissal wins again', async () => {
    const p = await project();
    const target = await p.one(`context_id=${p.first}`, 'security/command-injection');
    expect((await p.call('POST', `/issues/${target.id}/dismiss`)).status).toBe(200);
    expect(await p.rules()).toEqual([expect.objectContaining({ action: 'dismiss', reason: '', scope: 'file' })]);
    const broad = await p.call('POST', '/dismiss-rules', { rule_pattern: 'security/*', reason: 'security is reviewed elsewhere' });
    expect(broad).toMatchObject({
      status: 201,
      body: { rule_pattern: 'security/*', scope: 'global', match_count: 0, source_type: null, secondary_pattern: null, file_path: '' },
    });
    const security = runs.v1
      .filter((f) => f.ruleId.startsWith('security/'))
      .map((f) => `${f.ruleId} ${f.filePath}`)
      .sort();
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual(security);

    const second = await recordRun(api.db, p.id, runs.v2, { baseline: [p.first] });
    const copy = await p.one('', 'security/command-injection');
    expect(await p.call('POST', `/issues/${copy.id}/restore`)).toMatchObject({ status: 200, body: { status: 'restored' } });
    expect((await p.rules()).map((rule) => rule.rule_pattern)).toEqual(['security/*']);
    for (const run of [p.first, second]) {
      expect((await p.one(`context_id=${run}`, 'security/command-injection')).is_dismissed, run).toBe(false);
      expect((await p.one(`context_id=${run}`, 'security/no-eval')).is_dismissed, run).toBe(true);
    }
    // Restoring an active issue is idempotent.
    expect(await p.call('POST', `/issues/${copy.id}/restore`)).toMatchObject({ status: 200, body: { status: 'restored' } });

    // The next assessment keeps the restored issue active; the broad rule counts what it hid in
    // the runs recorded after it (the second and the third), not the existing issues it hid.
    const third = await recordRun(api.db, p.id, runs.v2, { baseline: [second] });
    expect((await p.one('', 'security/command-injection')).is_dismissed).toBe(false);
    const hiddenInThird = runs.v2.filter((f) => f.ruleId.startsWith('security/') && f.ruleId !== 'security/command-injection');
    expect((await p.issues(`context_id=${third}&is_dismissed=true`)).length).toBe(hiddenInThird.length);
    expect((await p.rules())[0]).toMatchObject({ rule_pattern: 'security/*', match_count: 2 * hiddenInThird.length });

    // Dismissing it right after the restore creates a rule newer than the restoration: it wins.
    expect((await p.call('POST', `/issues/${copy.id}/dismiss`)).status).toBe(200);
    for (const run of [p.first, second, third]) expect((await p.one(`context_id=${run}`, 'security/command-injection')).is_dismissed, run).toBe(true);
  });

  it('deleting a broad rule re-activates what it suppressed, except what another rule still hides', async () => {
    const p = await project();
    const broad = (await p.call('POST', '/dismiss-rules', { rule_pattern: 'CODE-SMELL/*', action: 'wont_fix' })).body;
    const smells = runs.v1
      .filter((f) => f.category === 'code_smell')
      .map((f) => `${f.ruleId} ${f.filePath}`)
      .sort();
    expect(smells.length).toBeGreaterThanOrEqual(2);
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual(smells);
    const magic = await p.one(`context_id=${p.first}`, 'code-smell/magic-numbers');
    expect((await p.call('POST', `/issues/${magic.id}/dismiss`)).status).toBe(200);

    expect((await p.call('DELETE', `/dismiss-rules/${broad.id}`)).status).toBe(204);
    const stillHidden = runs.v1.filter((f) => fingerprintOf(f) === fingerprintOf(findingOf(runs.v1, magic))).map((f) => `${f.ruleId} ${f.filePath}`);
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual(stillHidden);
    expect((await p.rules()).map((rule) => rule.id)).not.toContain(broad.id);
    expect(await p.call('DELETE', `/dismiss-rules/${broad.id}`)).toMatchObject({ status: 404, body: { error: 'dismiss rule not found' } });
  });

  it('matches rules by title, file glob, source and secondary pattern, and undoes each on delete', async () => {
    const p = await project();
    const cases: Array<[Record<string, unknown>, (f: (typeof runs.v1)[number]) => boolean]> = [
      [
        { rule_pattern: 'unused FILE*', scope: 'file', file_path: 'src/u*.ts' },
        (f) => f.title.toLowerCase().startsWith('unused file') && f.filePath === 'src/util.ts',
      ],
      [{ rule_pattern: '*', scope: 'file', file_path: '**/*.ts', source_type: 'graph_rule' }, (f) => f.source === 'graph_rule' && f.filePath.endsWith('.ts')],
      [{ rule_pattern: '*', scope: 'file', file_path: '*.ts' }, () => false],
      [{ rule_pattern: '*', secondary_pattern: "*exec('ls*" }, (f) => f.anchor.codeSnippet.includes("exec('ls")],
      [{ rule_pattern: 'compliance/*', scope: 'project' }, (f) => f.ruleId.startsWith('compliance/')],
      [{ rule_pattern: 'exec() runs a shell*' }, (f) => f.title.startsWith('exec() runs a shell')],
      [{ rule_pattern: '!security/*', scope: 'file', file_path: 'src/index.ts' }, (f) => !f.ruleId.startsWith('security/') && f.filePath === 'src/index.ts'],
    ];
    for (const [body, expected] of cases) {
      const created = await p.call('POST', '/dismiss-rules', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const want = runs.v1
        .filter(expected)
        .map((f) => `${f.ruleId} ${f.filePath}`)
        .sort();
      expect(await p.dismissed(`context_id=${p.first}`), JSON.stringify(body)).toEqual(want);
      expect((await p.call('DELETE', `/dismiss-rules/${created.body.id}`)).status).toBe(204);
      expect(await p.dismissed(`context_id=${p.first}`)).toEqual([]);
    }
    expect(cases.filter(([, expected]) => runs.v1.some(expected)).length).toBe(6);
  });

  it('applies rules whose globs make backtracking matchers explode, correctly and at once, also to later runs', async () => {
    const p = await project();
    // picomatch's regex for this took 14.7 s on one request and froze the server meanwhile.
    const secondary = '*?*?*?*?*?*?*?S';
    // Its meaning, said plainly: a value ending in s or S (no newline crossed by `*`) after at least 7
    // characters other than `/`, with at most 7 line breaks (each taken by a `?`) before that s.
    const matches = (value: string) => {
      const before = value.slice(0, -1);
      return /s$/i.test(value) && before.replace(/\//g, '').length >= 7 && (before.match(/[\n\r\u2028\u2029]/g) ?? []).length <= 7;
    };
    const hit = (f: (typeof runs.v1)[number]) => [f.title, f.anchor.codeSnippet, `fingerprint:${fingerprintOf(f)}`].some(matches);
    const created = await p.call('POST', '/dismiss-rules', { rule_pattern: '*', secondary_pattern: secondary });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const want = runs.v1
      .filter(hit)
      .map((f) => `${f.ruleId} ${f.filePath}`)
      .sort();
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(runs.v1.length);
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual(want);

    // Stored, it applies to the next run as it is recorded; so does a 1,000-character pattern.
    const long = (await p.call('POST', '/dismiss-rules', { rule_pattern: '*?'.repeat(500), reason: 'titles of 500+ characters' })).body;
    expect(long).toMatchObject({ rule_pattern: expect.stringMatching(/^(\*\?){500}$/) });
    const second = await recordRun(api.db, p.id, runs.v2, { baseline: [p.first] });
    expect(await p.dismissed(`context_id=${second}`)).toEqual(
      runs.v2
        .filter(hit)
        .map((f) => `${f.ruleId} ${f.filePath}`)
        .sort(),
    );
    expect((await p.rules()).find((rule) => rule.id === long.id)).toMatchObject({ match_count: 0 });
  });

  it('returns the created rule with every spec field and lists rules newest first', async () => {
    const p = await project();
    const created = await p.call('POST', '/dismiss-rules', {
      rule_pattern: 'runtime/*',
      source_type: 'static_analyzer',
      secondary_pattern: '*catch*',
      scope: 'file',
      file_path: 'src/**',
      action: 'false_positive',
      reason: 'handled by the caller',
    });
    expect(created).toMatchObject({ status: 201 });
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      source_type: 'static_analyzer',
      rule_pattern: 'runtime/*',
      secondary_pattern: '*catch*',
      scope: 'file',
      file_path: 'src/**',
      action: 'false_positive',
      reason: 'handled by the caller',
      match_count: 0,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual(['runtime/empty-catch src/index.ts']);
    const later = (await p.call('POST', '/dismiss-rules', { rule_pattern: 'nothing-matches' })).body;
    expect((await p.rules()).map((rule) => rule.id)).toEqual([later.id, created.body.id]);
  });

  it('refuses invalid rules and dismiss bodies with 400', async () => {
    const p = await project();
    const bad = async (body: unknown, pattern: RegExp) => {
      const response = await p.call('POST', '/dismiss-rules', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error, JSON.stringify(body)).toMatch(pattern);
    };
    await bad({}, /rule_pattern/);
    await bad({ rule_pattern: '   ' }, /rule_pattern: must not be empty/);
    await bad({ rule_pattern: 'x', scope: 'file' }, /file_path: file_path is required when scope is 'file'/);
    await bad({ rule_pattern: 'x', file_path: 'src/a.ts' }, /file_path applies only to scope 'file'/);
    await bad({ rule_pattern: 'security/{a,b' }, /rule_pattern: rule_pattern is not a valid glob/);
    await bad({ rule_pattern: 'x', secondary_pattern: 'a\\' }, /secondary_pattern is not a valid glob/);
    await bad({ rule_pattern: 'x', scope: 'file', file_path: 'src/[z-a].ts' }, /file_path is not a valid glob/);
    await bad({ rule_pattern: 'x'.repeat(1001) }, /longer than 1000 characters/);
    await bad({ rule_pattern: '{a,b}\\1' }, /rule_pattern uses backreferences, which the linear-time matcher does not support/);
    await bad({ rule_pattern: 'x', scope: 'repo' }, /scope: .*"global"\|"project"\|"file"/);
    await bad({ rule_pattern: 'x', source_type: 'linter' }, /source_type/);
    await bad({ rule_pattern: 'x', action: 'ignore' }, /action: .*"dismiss"\|"false_positive"\|"wont_fix"/);
    await bad({ rule_pattern: 'x', severity: 'high' }, /severity/);
    await bad([1], /request body/);
    expect((await p.call('POST', '/dismiss-rules', { rule_pattern: 'x', source_type: null, secondary_pattern: null })).status).toBe(201);

    const issue = (await p.issues(`context_id=${p.first}`))[0]!;
    expect((await p.call('POST', `/issues/${issue.id}/dismiss`, { action: 'ignore' })).status).toBe(400);
    expect((await p.call('POST', `/issues/${issue.id}/dismiss`, { reason: 'x', extra: 1 })).status).toBe(400);
    expect((await api.request('POST', `/api/v1/projects/${p.id}/analysis/issues/${issue.id}/dismiss`, { key: owner.key, rawBody: '{' })).status).toBe(400);
    expect((await p.call('GET', `/issues/${issue.id}`)).body.is_dismissed).toBe(false);
    expect((await p.call('POST', '/issues/7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11/dismiss')).status).toBe(404);
  });

  it("keeps rules to their project: 404 for another project's rule, 403 for outsiders, 401 without a key", async () => {
    const p = await project();
    const other = await project();
    const rule = (await other.call('POST', '/dismiss-rules', { rule_pattern: 'security/*' })).body;
    expect(await p.call('DELETE', `/dismiss-rules/${rule.id}`)).toMatchObject({ status: 404, body: { error: 'dismiss rule not found' } });
    expect((await other.rules()).map((r) => r.id)).toEqual([rule.id]);
    expect(await p.rules()).toEqual([]);
    expect(await p.dismissed(`context_id=${p.first}`)).toEqual([]);
    const root = `/api/v1/projects/${other.id}/analysis/dismiss-rules`;
    for (const [method, path, body] of [
      ['GET', root],
      ['POST', root, { rule_pattern: 'x' }],
      ['DELETE', `${root}/${rule.id}`],
    ] as const) {
      expect(await api.request(method, path, { key: outsider.key, body }), `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      expect((await api.request(method, path, { body })).status).toBe(401);
    }
    expect(await api.request('DELETE', `${root}/not-a-uuid`, { key: owner.key })).toMatchObject({
      status: 400,
      body: { error: 'invalid path parameter: ruleId: ruleId must be a UUID' },
    });
    expect((await api.request('DELETE', `${root}/${rule.id}`, { key: owner.key })).status).toBe(204);
  });
});
