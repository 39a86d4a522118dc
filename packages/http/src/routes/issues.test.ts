import type { Finding } from '@codehealth/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';
import {
  addMember,
  analyseSnippetRepository,
  createRepository,
  findingOf,
  fingerprintOf,
  LINES_INSERTED,
  recordRun,
  type AnalysedRuns,
} from '../fixtures/issue-runs.js';

const RANK: Record<string, number> = { critical: 5, high: 4, medium: 3, low: 2, info: 1 };
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
type WireIssue = {
  id: string;
  severity: string;
  category: string;
  source: string;
  file_path: string;
  rule_id: string;
  title: string;
  created_at: string;
  anchor: { line_start: number; code_snippet: string };
} & Record<string, any>;
const bySeverity = (a: WireIssue, b: WireIssue) => RANK[b.severity]! - RANK[a.severity]!;
const byFile = (a: WireIssue, b: WireIssue) => cmp(a.file_path, b.file_path) || a.anchor.line_start - b.anchor.line_start;
/** The documented orders, each with its tie-break down to the id. */
const ORDERS: Record<string, (a: WireIssue, b: WireIssue) => number> = {
  severity: (a, b) => bySeverity(a, b) || byFile(a, b) || cmp(a.rule_id, b.rule_id) || cmp(a.id, b.id),
  file_path: (a, b) => byFile(a, b) || bySeverity(a, b) || cmp(a.rule_id, b.rule_id) || cmp(a.id, b.id),
  category: (a, b) => cmp(a.category, b.category) || bySeverity(a, b) || byFile(a, b) || cmp(a.id, b.id),
  created_at: (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || bySeverity(a, b) || byFile(a, b) || cmp(a.id, b.id),
};
const countBy = (findings: readonly Finding[], key: (f: Finding) => string): Record<string, number> =>
  findings.reduce<Record<string, number>>((acc, f) => ({ ...acc, [key(f)]: (acc[key(f)] ?? 0) + 1 }), {});

describeStores('issues API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let runs: AnalysedRuns;
  let projectId: string;
  let otherProjectId: string;
  let repositoryId: string;
  let first: string;
  let latest: string;
  let running: string;
  let prRun: string;
  const base = () => `/api/v1/projects/${projectId}/analysis/issues`;
  const list = async (query = '') => {
    const response = await api.request('GET', `${base()}${query}`, { key: owner.key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { issues: WireIssue[]; total: number };
  };

  beforeAll(async () => {
    runs = await analyseSnippetRepository();
    api = await createTestApi({ store });
    [owner, member, outsider] = [await api.createUser(), await api.createUser(), await api.createUser()];
    projectId = await api.createProject(owner);
    otherProjectId = await api.createProject(owner);
    await addMember(api.db, projectId, member.userId);
    repositoryId = await createRepository(api.db);
    first = await recordRun(api.db, projectId, runs.v1, { repositoryId });
    latest = await recordRun(api.db, projectId, runs.v2, { repositoryId, baseline: [first] });
    // Newer, but not completed (its issues are still being recorded): listed under no filter.
    running = await recordRun(api.db, projectId, runs.v1.slice(0, 3), { repositoryId, status: 'running' });
    prRun = await recordRun(
      api.db,
      projectId,
      runs.v2.filter((f) => f.filePath === 'src/util.ts'),
      { repositoryId, contextType: 'pr_analysis', baseline: [latest] },
    );
    await recordRun(api.db, otherProjectId, runs.v1);
  });
  afterAll(() => api?.close());

  it('has real findings to work with (preconditions of this suite)', () => {
    const rules = runs.v2.map((f) => f.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['security/command-injection', 'security/no-eval']));
    expect(new Set(runs.v2.map((f) => f.severity)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(runs.v2.map((f) => f.source)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(runs.v2.map((f) => f.category)).size).toBeGreaterThanOrEqual(4);
    expect(runs.v2.length).toBeGreaterThan(runs.v1.length);
  });

  it('lists the latest completed assessment by default, with every spec field', async () => {
    const body = await list();
    expect(body.total).toBe(runs.v2.length);
    expect(body.issues).toHaveLength(runs.v2.length);
    expect(new Set(body.issues.map((issue) => issue.context_id))).toEqual(new Set([latest]));
    const issue = body.issues.find((i) => i.rule_id === 'security/command-injection')!;
    const finding = findingOf(runs.v2, issue);
    expect(issue).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      source: finding.source,
      severity: finding.severity,
      file_path: 'src/index.ts',
      file_group: finding.fileGroup,
      anchor: {
        line_start: finding.anchor.lineStart,
        line_end: finding.anchor.lineEnd,
        code_snippet: finding.anchor.codeSnippet,
        validated: finding.anchor.validated,
      },
      category: 'security',
      title: finding.title,
      description: finding.description,
      why_it_matters: finding.whyItMatters,
      suggested_action: finding.suggestedAction,
      rule_id: 'security/command-injection',
      analyzer_name: finding.analyzerName,
      confidence: Math.round(finding.confidence),
      auto_fixable: finding.autoFixable,
      is_new: false,
      is_dismissed: false,
      context_type: 'health_assessment',
      context_id: latest,
      project_id: projectId,
      repository_id: repositoryId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      // an extension: the role of the file, as the run classified it
      file_role: 'production',
    });
    expect(finding.role).toBe('production');
    expect(issue.anchor.code_snippet).toContain("exec('ls ' + dir)");
  });

  it('keeps identities across the re-analysis: moved lines are not new, the added finding is', async () => {
    const before = (await list(`?context_id=${first}&limit=500`)).issues;
    const after = (await list(`?context_id=${latest}&limit=500`)).issues;
    expect(before.every((issue) => issue.is_new === false)).toBe(true);
    const v1Identities = new Set(runs.v1.map(fingerprintOf));
    for (const issue of after) expect(issue.is_new, issue.title).toBe(!v1Identities.has(fingerprintOf(findingOf(runs.v2, issue))));
    expect(after.filter((issue) => issue.is_new).map((issue) => `${issue.rule_id} ${issue.file_path}`)).toContain('security/no-eval src/util.ts');
    const moved = (list: WireIssue[]) => list.find((issue) => issue.rule_id === 'security/command-injection')!;
    expect(moved(after).anchor.line_start).toBe(moved(before).anchor.line_start + LINES_INSERTED);
    expect(moved(after).id).not.toBe(moved(before).id);
  });

  it('reads the matching runs with context_type and context_id', async () => {
    expect((await list(`?context_id=${first}`)).total).toBe(runs.v1.length);
    expect((await list(`?context_id=${running}`)).total).toBe(0);
    expect((await list('?context_type=health_assessment')).total).toBe(runs.v1.length + runs.v2.length);
    const pr = await list('?context_type=pr_analysis');
    expect(pr.total).toBe(runs.v2.filter((f) => f.filePath === 'src/util.ts').length);
    expect(pr.issues.every((issue) => issue.context_type === 'pr_analysis' && issue.context_id === prRun)).toBe(true);
    expect((await list(`?context_type=pr_analysis&context_id=${first}`)).total).toBe(0);
    expect((await list('?context_type=push')).total).toBe(0);
  });

  it('filters by severity, severities, category, source and is_dismissed', async () => {
    const severities = Object.keys(countBy(runs.v2, (f) => f.severity));
    for (const severity of severities) {
      const body = await list(`?severity=${severity}`);
      expect(body.total, severity).toBe(runs.v2.filter((f) => f.severity === severity).length);
      expect(body.issues.every((issue) => issue.severity === severity)).toBe(true);
    }
    const pair = severities.slice(0, 2);
    const either = await list(`?severities=${pair.join(',%20')}`);
    expect(either.total).toBe(runs.v2.filter((f) => pair.includes(f.severity)).length);
    expect((await list(`?severities=${pair.join(',')}&severity=${pair[0]}`)).total).toBe(runs.v2.filter((f) => f.severity === pair[0]).length);
    expect((await list('?severities=')).total).toBe(runs.v2.length);
    for (const [category, count] of Object.entries(countBy(runs.v2, (f) => f.category))) {
      expect((await list(`?category=${category}`)).total, category).toBe(count);
    }
    for (const [source, count] of Object.entries(countBy(runs.v2, (f) => f.source))) {
      const body = await list(`?source=${source}`);
      expect(body.total, source).toBe(count);
      expect(body.issues.every((issue) => issue.source === source)).toBe(true);
    }
    expect((await list('?source=llm_agent')).total).toBe(0);
    const security = runs.v2.filter((f) => f.category === 'security' && f.severity === 'high').length;
    expect((await list('?category=security&severity=high')).total).toBe(security);
    expect((await list('?is_dismissed=false')).total).toBe(runs.v2.length);
    expect((await list('?is_dismissed=true')).total).toBe(0);
    // An extension: is_new (the added finding of v2 is new, the moved ones are not).
    const fresh = (await list(`?context_id=${latest}&limit=500`)).issues.filter((issue) => issue.is_new);
    expect(fresh.length).toBeGreaterThan(0);
    const onlyNew = await list(`?context_id=${latest}&is_new=true&limit=500`);
    expect(onlyNew.issues.map((issue) => issue.id).sort()).toEqual(fresh.map((issue) => issue.id).sort());
    expect((await list(`?context_id=${latest}&is_new=false`)).total).toBe(runs.v2.length - fresh.length);
    expect((await list(`?context_id=${first}&is_new=1`)).total).toBe(0);
  });

  it('sorts by every key with a stable tie-break (severity by default) and pages without overlap', async () => {
    for (const sortBy of ['severity', 'file_path', 'category', 'created_at']) {
      const { issues } = await list(`?context_type=health_assessment&sort_by=${sortBy}&limit=500`);
      expect(
        issues.map((i) => i.id),
        sortBy,
      ).toEqual([...issues].sort(ORDERS[sortBy]).map((i) => i.id));
    }
    const byDefault = (await list('?limit=500')).issues;
    expect(byDefault.map((i) => i.id)).toEqual([...byDefault].sort(ORDERS.severity).map((i) => i.id));
    expect(RANK[byDefault[0]!.severity]).toBeGreaterThan(RANK[byDefault.at(-1)!.severity]!);
    const newestFirst = (await list('?context_type=health_assessment&sort_by=created_at&limit=500')).issues;
    expect(newestFirst[0]!.context_id).toBe(latest);
    expect(newestFirst.at(-1)!.context_id).toBe(first);

    const all = (await list('?context_type=health_assessment&sort_by=file_path&limit=500')).issues;
    const pages: WireIssue[] = [];
    for (let offset = 0; offset < all.length; offset += 4) {
      const page = await list(`?context_type=health_assessment&sort_by=file_path&limit=4&offset=${offset}`);
      expect(page.total).toBe(all.length);
      expect(page.issues.length).toBe(Math.min(4, all.length - offset));
      pages.push(...page.issues);
    }
    expect(pages.map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect((await list(`?offset=${runs.v2.length}`)).issues).toEqual([]);
    expect((await list()).issues).toHaveLength(Math.min(50, runs.v2.length));
  });

  it('answers statistics over the same scope, every key present', async () => {
    const stats = await api.request('GET', `${base()}/stats`, { key: member.key });
    expect(stats.status).toBe(200);
    const zero = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, 0]));
    expect(stats.body).toEqual({
      by_category: {
        ...zero(['security', 'runtime', 'testing', 'code_smell', 'dead_code', 'duplication', 'consistency', 'compliance']),
        ...countBy(runs.v2, (f) => f.category),
      },
      by_severity: { ...zero(['critical', 'high', 'medium', 'low', 'info']), ...countBy(runs.v2, (f) => f.severity) },
      by_source: { ...zero(['static_analyzer', 'llm_agent', 'graph_rule', 'convention', 'architecture']), ...countBy(runs.v2, (f) => f.source) },
      total: runs.v2.length,
      dismissed: 0,
    });
    const firstStats = await api.request('GET', `${base()}/stats?context_id=${first}`, { key: owner.key });
    expect(firstStats.body.total).toBe(runs.v1.length);
    expect(firstStats.body.by_severity).toMatchObject(countBy(runs.v1, (f) => f.severity));
  });

  it('gets one issue; 404 for an issue of another project or an unknown id', async () => {
    const [issue] = (await list('?limit=1')).issues;
    const got = await api.request('GET', `${base()}/${issue!.id}`, { key: member.key });
    expect(got).toMatchObject({ status: 200, body: issue });
    const foreign = (await api.request('GET', `/api/v1/projects/${otherProjectId}/analysis/issues?limit=1`, { key: owner.key })).body.issues[0];
    expect(await api.request('GET', `${base()}/${foreign.id}`, { key: owner.key })).toMatchObject({ status: 404, body: { error: 'issue not found' } });
    for (const action of ['dismiss', 'restore']) {
      expect(await api.request('POST', `${base()}/${foreign.id}/${action}`, { key: owner.key })).toMatchObject({
        status: 404,
        body: { error: 'issue not found' },
      });
    }
    expect(await api.request('GET', `${base()}/not-a-uuid`, { key: owner.key })).toMatchObject({
      status: 400,
      body: { error: 'invalid path parameter: issueId: issueId must be a UUID' },
    });
  });

  it('refuses bad query parameters with 400 naming what is allowed', async () => {
    const bad = async (query: string, pattern: RegExp) => {
      const response = await api.request('GET', `${base()}${query}`, { key: owner.key });
      expect(response.status, query).toBe(400);
      expect(response.body.error, query).toMatch(pattern);
    };
    await bad('?severity=urgent', /severity: Invalid option: expected one of "critical"\|"high"\|"medium"\|"low"\|"info"/);
    await bad('?severities=high,urgent', /severities: unknown severity "urgent": expected a comma-separated list of critical, high, medium, low, info/);
    await bad('?category=runtime_risks', /category: .*"runtime"/);
    await bad('?source=linter', /source: .*"static_analyzer"/);
    await bad('?context_type=nightly', /context_type: .*"pr_analysis"/);
    await bad('?context_id=42', /context_id: context_id must be a UUID/);
    await bad('?sort_by=newest', /sort_by: .*"severity"\|"file_path"\|"category"\|"created_at"/);
    await bad('?is_dismissed=yes', /is_dismissed/);
    await bad('?is_new=maybe', /is_new/);
    await bad('?is_new=', /is_new/);
    await bad('?limit=501', /limit: .*500/);
    await bad('?limit=0', /limit/);
    await bad('?offset=-1', /offset/);
    await bad('?limit=ten', /limit/);
    await bad('/stats?context_id=nope', /context_id must be a UUID/);
    expect((await list('?limit=500')).issues).toHaveLength(runs.v2.length);
  });

  it('has no issues of an assessment before it completes, under any filter', async () => {
    const fresh = await api.createProject(owner);
    await recordRun(api.db, fresh, runs.v1, { status: 'running' });
    const empty = await api.request('GET', `/api/v1/projects/${fresh}/analysis/issues`, { key: owner.key });
    expect(empty.body).toEqual({ issues: [], total: 0 });
    const stats = await api.request('GET', `/api/v1/projects/${fresh}/analysis/issues/stats`, { key: owner.key });
    expect(stats.body).toMatchObject({ total: 0, dismissed: 0, by_severity: { critical: 0, high: 0, medium: 0, low: 0, info: 0 } });
    expect((await api.request('GET', `/api/v1/projects/${fresh}/analysis/issues?context_type=health_assessment`, { key: owner.key })).body.total).toBe(0);
  });

  it('gives 403 to an outsider on every issue route, and lets a member use them', async () => {
    const [issue] = (await list('?limit=1')).issues;
    const routes: Array<[string, string]> = [
      ['GET', base()],
      ['GET', `${base()}/stats`],
      ['GET', `${base()}/${issue!.id}`],
      ['POST', `${base()}/${issue!.id}/dismiss`],
      ['POST', `${base()}/${issue!.id}/restore`],
    ];
    for (const [method, path] of routes) {
      expect(await api.request(method, path, { key: outsider.key }), `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      expect((await api.request(method, path)).status).toBe(401);
    }
    for (const [method, path] of routes) expect((await api.request(method, path, { key: member.key })).status, `${method} ${path}`).toBe(200);
    expect((await api.request('GET', `${base()}/${issue!.id}`, { key: member.key })).body.is_dismissed).toBe(false);
  });
});
