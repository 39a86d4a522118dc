// The dashboard in a real browser (Debian's Chromium driven by playwright-core; nothing is
// downloaded) against a real embedded server and a real git repository: sign in with the one-time
// link and with a pasted key, create a project, add the repository and watch onboarding finish,
// read the health dashboard, filter and dismiss an issue, open a PR analysis, create and revoke a
// key. Every page gets an axe-core pass and a screenshot in test-results/web/.
import 'reflect-metadata';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startHost, type Host } from '../../packages/cli/src/host/compose.js';
import { readEmbeddedConfig } from '../../packages/cli/src/host/config.js';
import { createGitRepo, type TestRepo } from '../helpers/git-repo.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-results/web');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const available = existsSync(CHROMIUM);
if (!available) console.warn(`SKIPPED: the browser suite needs Chromium at ${CHROMIUM} (apt-get install -y chromium); .ci/run installs it.`);

const dirs: string[] = [];
let host: Host;
let context: BrowserContext;
let page: Page;
let repo: TestRepo;
let dataDir: string;
const serverLog: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'packages/web/dist/index.html'))) execFileSync('npm', ['run', 'build', '-w', '@codehealth/web'], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(ARTIFACTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'codehealth-web-data-'));
  dirs.push(dataDir);
  host = await startHost(readEmbeddedConfig({ PORT: '0', CODEHEALTH_DATA_DIR: dataDir, CODEHEALTH_OWNER_EMAIL: 'ada@example.com' }, dataDir), {
    log: (line) => void serverLog.push(line),
  });
  repo = createGitRepo(
    {
      'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
      'src/cart.js': [
        'export function total(items, coupon) {',
        '  let sum = 0;',
        '  for (const item of items) {',
        '    if (item) {',
        '      if (item.price > 0) {',
        '        if (item.qty > 0) {',
        '          if (coupon) {',
        '            if (coupon.kind === "pct") { sum += item.price * item.qty * (1 - coupon.value / 100); }',
        '            else { sum += item.price * item.qty - coupon.value; }',
        '          } else { sum += item.price * item.qty; }',
        '        }',
        '      }',
        '    }',
        '  }',
        '  return eval("sum");',
        '}',
        '',
      ].join('\n'),
      'src/cart.test.js': 'import { total } from "./cart.js";\nif (total([], null) !== 0) throw new Error("empty cart");\n',
    },
    'codehealth-web-repo-',
  );
  dirs.push(repo.root);
  if (!available) return;
  context = await launchBrowser();
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await host?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** axe-core on the current page: no violation at all (WCAG 2 A/AA rules and best practices). */
async function checkAccessibility(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> } }
    ).axe.run(document);
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
  });
  expect(violations, `axe on ${name}`).toEqual([]);
}

const url = (path: string) => `${host.url}${path}`;

/** Chromium with a fresh profile of its own (one per user of the test). */
async function launchBrowser(): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'codehealth-chromium-'));
  dirs.push(profile);
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
    bypassCSP: true, // to inject axe-core; the page's own CSP is checked over HTTP below
  });
}

/** A GET with the path sent exactly as written (fetch would normalise dot segments first). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const request = httpRequest(`${host.url}/`, { path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', fail);
    request.end();
  });
}

describe.skipIf(!available)('the dashboard in Chromium', () => {
  it('is served with content types, caching, SPA fallback and no way out of its root', async () => {
    const index = await fetch(url('/'));
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(url(script!));
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(url(script!), { headers: { 'if-none-match': asset.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const route = await fetch(url('/projects/123/issues?severity=high'));
    expect(await route.text()).toBe(html);
    expect((await fetch(url('/assets/missing.js'))).status).toBe(404);
    for (const path of ['/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%5c..%5cpackage.json', '/../../package.json', '/a%00.js']) {
      const refused = await rawGet(path);
      // Refused outright (400), or resolved by the URL parser inside the root and not found (404).
      expect([400, 404], path).toContain(refused.status);
      expect(refused.body).not.toContain('"name"');
    }
    // The API keeps its JSON answers beside the page.
    const api = await fetch(url('/api/v1/nothing-here'));
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: expect.stringContaining('not found') });
  });

  it('walks the main flows: sign in, project, repository, health, issues, pull request, keys', async () => {
    // A signed-out visitor lands on the sign-in page.
    await page.goto(url('/projects'));
    await page.getByRole('heading', { name: 'Sign in to CodeHealth' }).waitFor();
    await checkAccessibility('01-sign-in');

    // The one-time link npm start prints signs the owner in, once.
    expect(host.signInLink).toMatch(/\/sign-in\/local#code=/);
    await page.goto(host.signInLink!);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.getByText('No project yet').waitFor();
    const reuse = await fetch(url('/admin/sign-in'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: new URL(host.signInLink!).hash.slice(6) }),
    });
    expect(reuse.status).toBe(410);

    // Create a key (shown once), sign out, sign back in by pasting it.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name', { exact: true }).fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New key').inputValue();
    expect(key).toMatch(/^chk_/);
    await checkAccessibility('02-api-keys-created');
    await page.getByRole('button', { name: 'Sign out' }).click();
    // A `next` that points elsewhere is not followed after sign-in.
    await page.goto(url('/sign-in?next=%2F%2Fevil.example%2Fphish'));
    await page.getByLabel('API key').fill('chk_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'does not accept this key' }).waitFor();
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    expect(page.url()).toBe(url('/projects'));

    // Create a project: the app goes to its repositories.
    await page.getByLabel('Name', { exact: true }).fill('Web Shop');
    expect(await page.getByLabel('Key').inputValue()).toBe('web-shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: /Repositories/ }).waitFor();
    await checkAccessibility('03-repositories-empty');
    const projectId = /\/projects\/([0-9a-f-]{36})\/repos/.exec(page.url())?.[1];
    expect(projectId).toBeDefined();

    // Add the local git repository and watch onboarding stream to its end.
    await page.getByLabel('Repository URL').fill(pathToFileURL(repo.root).href);
    await page.getByRole('button', { name: 'Add repository' }).click();
    await page.getByText('Onboarding completed.').waitFor({ timeout: 120_000 });
    await page.getByRole('listitem').filter({ hasText: 'initial_assessment' }).first().waitFor();
    await checkAccessibility('04-repositories-onboarded');
    // Without a code-host App the installation sync says what to configure.
    await page.getByRole('button', { name: 'Sync installations and list repositories' }).click();
    await page.getByRole('alert').filter({ hasText: 'no code-host App is configured (set VCS_APP_ID and VCS_PRIVATE_KEY_PATH)' }).waitFor();

    // The health dashboard shows the grade the API computed.
    const health = (await (await fetch(url(`/api/v1/projects/${projectId}/health`), { headers: { authorization: `Bearer ${key}` } })).json()) as {
      latest_assessment: { overall_grade: string; overall_score: number };
    };
    await page.getByRole('link', { name: 'Health', exact: true }).click();
    await page.getByRole('heading', { name: 'Overall health' }).waitFor();
    await expect
      .poll(() => page.locator('.grade').first().getAttribute('aria-label'))
      .toBe(`grade ${health.latest_assessment.overall_grade}, score ${Math.round(health.latest_assessment.overall_score)}`);
    await page.getByRole('img', { name: /Scores over assessments/ }).waitFor();
    await checkAccessibility('05-health');

    // Trigger an assessment and watch it finish; the trend gains a point.
    await page.getByRole('button', { name: 'Run an assessment' }).click();
    await page.getByText(/Assessment completed: grade [A-F]/).waitFor({ timeout: 120_000 });
    await page.getByText('Show the numbers').click();
    await expect.poll(() => page.locator('.chart tbody tr').count()).toBe(2);

    // Issues: filter, read the anchor, dismiss; it moves to the dismissed list; restore it.
    await page.getByRole('link', { name: 'Issues', exact: true }).click();
    await page.getByRole('list').locator('li.issue').first().waitFor();
    const allCount = await page.locator('li.issue').count();
    expect(allCount).toBeGreaterThan(0);
    await page.getByLabel('Category').selectOption('security');
    await expect.poll(() => page.url()).toContain('category=security');
    const evalIssue = page.locator('li.issue').filter({ hasText: 'cart.js' }).first();
    await evalIssue.locator('summary').click();
    await evalIssue.getByRole('heading', { name: 'Why it matters' }).waitFor();
    await expect.poll(() => evalIssue.locator('pre.snippet').textContent()).toContain('eval');
    await checkAccessibility('06-issues-filtered');
    const title = (await evalIssue.locator('summary strong').textContent())!;
    await evalIssue.getByLabel('Reason (optional)').fill('reviewed: constant string');
    await evalIssue.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByText('No active issue matches these filters.').waitFor();
    await page.getByLabel('Show').selectOption('true');
    const dismissed = page.locator('li.issue').filter({ hasText: title });
    await dismissed.waitFor();
    await page.getByRole('heading', { name: 'Dismiss rules' }).waitFor();
    await page.getByRole('cell', { name: 'reviewed: constant string' }).waitFor();
    await checkAccessibility('07-issues-dismissed');
    await dismissed.locator('summary').click();
    await dismissed.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('No dismissed issue matches these filters.').waitFor();
    // A dismiss rule written by hand, then deleted.
    await page.getByLabel('Rule pattern').fill('code-smell/deep-nesting');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Delete rule code-smell/deep-nesting' }).click();
    await page.getByRole('button', { name: 'Delete rule code-smell/deep-nesting' }).waitFor({ state: 'detached' });

    // A pull request (refs/pull/1/head of the local repository), analysed, opened from the list.
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/discount.js': 'export const discount = (value) => eval(String(value));\n' });
    const head = repo.commit('add discount');
    repo.git('update-ref', 'refs/pull/1/head', head);
    repo.git('checkout', '-q', 'main');
    await page.getByRole('link', { name: 'Pull requests', exact: true }).click();
    await page.getByText('No pull request analysed yet.').waitFor();
    await page.getByLabel('Pull request number').fill('1');
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.getByRole('heading', { name: /Pull request #1/ }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^(completed|failed) ·/ })
      .waitFor({ timeout: 120_000 });
    const analysisId = /\/pulls\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    const analysis = (await (
      await fetch(url(`/api/v1/projects/${projectId}/pr-analyses/${analysisId}`), { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      status: string;
      merge_readiness: { status: string };
    };
    expect(analysis.status).toBe('completed');
    await page.getByRole('heading', { name: 'Merge readiness' }).waitFor();
    // The change adds an eval(): the verdict the API gives, in words, with its reason.
    expect(analysis.merge_readiness.status).toBe('blocked');
    await page
      .locator('section', { has: page.getByRole('heading', { name: 'Merge readiness' }) })
      .getByText('Blocked', { exact: true })
      .waitFor();
    await page
      .getByRole('listitem')
      .filter({ hasText: /blocking: .*src\/discount\.js/ })
      .waitFor();
    await page.getByRole('heading', { name: 'Health projection' }).waitFor();
    await page.getByRole('heading', { name: 'Impact zones' }).waitFor();
    await checkAccessibility('08-pull-request');
    await page.getByRole('link', { name: 'Issues of this analysis' }).click();
    await page.getByText('Showing the issues of one analysis run.').waitFor();
    await page.locator('li.issue').filter({ hasText: 'src/discount.js' }).first().waitFor();
    expect(await page.locator('li.issue').filter({ hasText: 'src/cart.js' }).count()).toBe(0);
    await page.goBack();
    await page.getByRole('link', { name: '← All pull requests' }).click();
    await page.getByRole('link', { name: /#1/ }).waitFor();
    await checkAccessibility('08b-pull-requests');

    // The pull request merged: the next assessment raises drift alerts, one is dismissed.
    repo.git('merge', '-q', '--ff-only', 'feature');
    await page.getByRole('link', { name: 'Health', exact: true }).click();
    await page.getByRole('button', { name: 'Run an assessment' }).click();
    await page.getByText(/Assessment completed: grade [A-F]/).waitFor({ timeout: 120_000 });
    const drift = page.locator('section', { has: page.getByRole('heading', { name: 'Drift alerts' }) });
    const alerts = drift.getByRole('listitem');
    await alerts.first().waitFor();
    const before = await alerts.count();
    const listed = (await (await fetch(url(`/api/v1/projects/${projectId}/health`), { headers: { authorization: `Bearer ${key}` } })).json()) as {
      drift_alerts: { message: string; dismissed: boolean }[];
    };
    const active = listed.drift_alerts.filter((alert) => !alert.dismissed);
    expect(active.length).toBe(before);
    for (const alert of active) await alerts.filter({ hasText: alert.message }).first().waitFor();
    await checkAccessibility('08c-health-drift');
    await alerts
      .first()
      .getByRole('button', { name: /^Dismiss/ })
      .click();
    await expect.poll(() => alerts.count()).toBe(before - 1);

    // Architecture: the overview onboarding computed, a review run to its end, a convention
    // accepted, a decision recorded and edited.
    await page.getByRole('link', { name: 'Architecture', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page
      .getByText(/1 component/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Run a review' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: /^completed/ })
      .waitFor({ timeout: 120_000 });
    const convention = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: /^Accept/ }) })
      .first();
    await convention.getByRole('button', { name: /^Accept/ }).click();
    await convention.getByText('accepted', { exact: true }).waitFor();
    const adrForm = page.locator('form', { has: page.getByRole('button', { name: 'Create' }) });
    await adrForm.getByLabel('Title').fill('Money in integer cents');
    await adrForm.getByLabel('Decision').fill('Prices are integers of cents.');
    await adrForm.getByRole('button', { name: 'Create' }).click();
    await page.getByText('ADR 1: Money in integer cents').click();
    await page.getByRole('button', { name: 'Edit ADR 1' }).click();
    const editForm = page.locator('form', { has: page.getByRole('button', { name: 'Save' }) });
    await editForm.getByLabel('Status').selectOption('accepted');
    await editForm.getByRole('button', { name: 'Save' }).click();
    await page.locator('summary', { hasText: 'ADR 1: Money in integer cents' }).getByText('accepted').waitFor();
    await checkAccessibility('09-architecture');

    // Members: the owner is listed; an invitation is sent.
    await page.getByRole('link', { name: 'Members', exact: true }).click();
    await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
    await page
      .getByRole('combobox', { name: /^Role of / })
      .first()
      .waitFor();
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(/grace@example\.com as member: pending/).waitFor();
    await checkAccessibility('10-members');
    // Grace (a key from the running server's admin route, as `keys create` gets one) follows the link and joins.
    const invitationLink = (await page.locator('code.break').textContent())!;
    expect(invitationLink).toMatch(new RegExp(`^${host.url}/invitations/[0-9a-f-]{36}$`));
    const lock = JSON.parse(readFileSync(join(dataDir, 'codehealth.lock'), 'utf8')) as { adminToken: string };
    const grace = (await (
      await fetch(url('/admin/keys'), {
        method: 'POST',
        headers: { authorization: `Bearer ${lock.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'grace@example.com' }),
      })
    ).json()) as { key: string };
    const graceContext = await launchBrowser();
    const gracePage = graceContext.pages()[0] ?? (await graceContext.newPage());
    gracePage.setDefaultTimeout(30_000);
    await gracePage.goto(url('/sign-in'));
    await gracePage.getByLabel('API key').fill(grace.key);
    await gracePage.getByRole('button', { name: 'Sign in' }).click();
    await gracePage.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await gracePage.goto(invitationLink);
    await gracePage.getByRole('button', { name: 'Accept the invitation' }).click();
    await gracePage.getByRole('heading', { name: 'Overall health' }).waitFor();
    expect(gracePage.url()).toBe(url(`/projects/${projectId}/health`));
    await graceContext.close();
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: /^Role of / }).count()).toBe(2);
    expect(await page.evaluate(() => localStorage.getItem('codehealth.token'))).toBe(key); // each person keeps their own sign-in

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Project settings' }).waitFor();
    await page.getByLabel('Settings (JSON object)').fill('{"team": ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();
    await page.getByLabel('Description').fill('The shop front end');
    await page.getByLabel('Settings (JSON object)').fill('{"team": "storefront"}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (await (await fetch(url(`/api/v1/projects/${projectId}`), { headers: { authorization: `Bearer ${key}` } })).json()) as {
      description: string;
      settings: unknown;
    };
    expect(saved).toMatchObject({ description: 'The shop front end', settings: { team: 'storefront' } });
    await checkAccessibility('11-settings');

    // Keyboard: the first Tab reaches the skip link, which moves focus into the page's content.
    await page.goto(url(`/projects/${projectId}/issues`));
    await page.getByRole('heading', { name: 'Issues Web Shop', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

    // Create a second key and revoke it: it leaves the list and the API refuses it.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci-bot');
    await page.getByRole('button', { name: 'Create key' }).click();
    const botKey = await page.getByLabel('New key').inputValue();
    expect((await fetch(url('/api/v1/projects'), { headers: { authorization: `Bearer ${botKey}` } })).status).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke ci-bot' }).click();
    await page.getByRole('row', { name: /ci-bot/ }).waitFor({ state: 'detached' });
    expect((await fetch(url('/api/v1/projects'), { headers: { authorization: `Bearer ${botKey}` } })).status).toBe(401);
    await checkAccessibility('12-api-keys');

    // A phone-sized window and the dark scheme render the dashboard too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(url(`/projects/${projectId}/health`));
    await page.getByRole('heading', { name: 'Overall health' }).waitFor();
    await checkAccessibility('13-health-phone-dark');
  }, 600_000);
});
