// `codehealth review` in process on a real git repository with the real engine: a branch that adds
// a complex function, simplifies another and edits a file with an old issue. What the review
// reports as new, fixed and pre-existing; the four formats; the gate from flags and from the config;
// bad revisions. Only the terminal is faked.
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRepo } from '../../../../test/helpers/git-repo.js';
import { sarifSchemaErrors } from '../../../../test/helpers/validate-sarif.js';
import { COMPLEX, run, useRealCli } from '../fixtures/real-cli.js';
import { parseReviewArgs } from './review.js';

const cli = useRealCli();
const rename = (code: string, name: string) => code.replace('export function route(', `export function ${name}(`);

interface ChangeJson {
  base: { ref: string; sha: string };
  head: { ref: string; sha: string };
  readiness: { status: string; reasons: string[] };
  newFindings: Array<{ ruleId: string; filePath: string; severity: string; symbol?: string }>;
  fixedFindings: Array<{ ruleId: string; filePath: string; symbol?: string }>;
  findings: Array<{ ruleId: string; filePath: string; symbol?: string }>;
  changedFiles: Array<{ path: string }>;
}

let repo: TestRepo;
let baseSha: string;
beforeAll(() => {
  repo = cli.repo({
    'package.json': '{ "name": "demo", "type": "module" }\n',
    'src/old.ts': rename(COMPLEX, 'oldRoute'),
    'src/legacy.ts': rename(COMPLEX, 'legacyRoute'),
    'src/util.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  });
  baseSha = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write({
    // New: a second tangled function. Fixed: legacyRoute becomes simple. Pre-existing: oldRoute, in an edited file.
    'src/fresh.ts': rename(COMPLEX, 'freshRoute'),
    'src/legacy.ts': 'export function legacyRoute(items: number[]): number {\n  return items.reduce((sum, item) => sum + item, 0);\n}\n',
    'src/old.ts': `${rename(COMPLEX, 'oldRoute')}\nexport const VERSION = '2';\n`,
  });
  repo.commit('feature: add freshRoute, simplify legacyRoute');
}, 120_000);

async function review(argv: string[], cwd = repo.root) {
  return run(['review', '--base', 'main', '-q', ...argv], { cwd });
}

async function changeJson(argv: string[] = []): Promise<ChangeJson> {
  const r = await review(['-f', 'json', ...argv]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout) as ChangeJson;
}

describe('review: what the change adds and fixes', () => {
  it('reports the new finding, the fixed one, and not the old issue of an edited file', async () => {
    const change = await changeJson();
    expect(change.base.sha).toBe(baseSha);
    expect(change.head.sha).toBe(repo.git('rev-parse', 'HEAD'));
    expect(change.changedFiles.map((f) => f.path).sort()).toEqual(['src/fresh.ts', 'src/legacy.ts', 'src/old.ts']);
    const newPlaces = change.newFindings.map((f) => `${f.filePath}#${f.symbol}`);
    expect(newPlaces).toContain('src/fresh.ts#freshRoute');
    expect(newPlaces.some((p) => p.startsWith('src/old.ts') || p.startsWith('src/legacy.ts'))).toBe(false);
    expect(change.fixedFindings.map((f) => `${f.filePath}#${f.symbol}`)).toContain('src/legacy.ts#legacyRoute');
    // The old issue is still there, in the scope, and not new.
    expect(change.findings.map((f) => `${f.filePath}#${f.symbol}`)).toContain('src/old.ts#oldRoute');
  });

  it('prints a text report naming the new and fixed findings and the verdict', async () => {
    const r = await review([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^CodeHealth review: main → HEAD/m);
    expect(r.stdout).toMatch(/^Merge readiness {2}(ready to merge|needs review|blocked)/m);
    expect(r.stdout).toMatch(/^New findings \(\d+\)\n(.*\n)*.*src\/fresh\.ts:1 /m);
    expect(r.stdout).toMatch(/^Fixed findings \(\d+\)\n(.*\n)*.*src\/legacy\.ts:1 /m);
    expect(r.stdout).not.toContain('src/old.ts:1');
  });

  it('prints a Markdown comment body with the verdict and the new findings', async () => {
    const r = await review(['-f', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^## CodeHealth: `main` → `HEAD` — /);
    expect(r.stdout).toContain('**Merge readiness:**');
    expect(r.stdout).toMatch(/### New findings \(\d+\)\n\n- \*\*\w+\*\* `src\/fresh\.ts:\d+`/);
    expect(r.stdout).toMatch(/### Fixed findings \(\d+\)/);
  });

  it('writes SARIF with only the new findings, each marked baselineState new', async () => {
    const out = join(cli.tempDir('codehealth-review-'), 'review.sarif');
    const r = await review(['-f', 'sarif', '-o', out]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const log = JSON.parse(await readFile(out, 'utf8'));
    expect(sarifSchemaErrors(log)).toEqual([]);
    const results = log.runs[0].results as Array<{ baselineState: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
    const change = await changeJson();
    expect(results).toHaveLength(change.newFindings.length);
    expect(results.every((result) => result.baselineState === 'new')).toBe(true);
    expect(results.map((result) => result.locations[0]!.physicalLocation.artifactLocation.uri)).toContain('src/fresh.ts');
    expect(log.runs[0].versionControlProvenance[0].revisionId).toBe(change.head.sha);
  });
});

describe('review: an issue the change made worse', () => {
  it('lists it with its former and new value, and marks it updated, not new, in SARIF', async () => {
    const worse = rename(COMPLEX, 'route').replace(
      "    } else if (kind === 'b') {",
      "    } else if (kind === 'c') {\n      if (item > 1) { if (strict) { total += 2; } else if (item > 3) { total--; } }\n    } else if (kind === 'b') {",
    );
    const grown = cli.repo({ 'package.json': '{ "name": "demo", "type": "module" }\n', 'src/route.ts': COMPLEX });
    grown.git('checkout', '-q', '-b', 'feature');
    grown.write({ 'src/route.ts': worse });
    grown.commit('route: kind c');
    const json = JSON.parse((await review(['-f', 'json'], grown.root)).stdout) as ChangeJson & { issueChanges: Record<string, { change: string }> };
    const complexity = json.newFindings.find((f) => f.ruleId === 'code-smell/cognitive-complexity');
    expect(complexity).toMatchObject({ filePath: 'src/route.ts', symbol: 'route' });
    expect(Object.values(json.issueChanges).map((c) => c.change)).toContain('worsened');
    const text = (await review([], grown.root)).stdout;
    expect(text).toMatch(/^New and worsened findings \(\d+\)$/m);
    expect(text).toMatch(/src\/route\.ts:1 +Cognitive Complexity of route is \d+ \(threshold \d+\) \(worsened: \d+ → \d+\)/);
    const markdown = (await review(['-f', 'markdown'], grown.root)).stdout;
    expect(markdown).toMatch(/### New and worsened findings \(\d+\)/);
    expect(markdown).toMatch(/\(worsened: \d+ → \d+\) \(code-smell\/cognitive-complexity\)/);
    const sarif = JSON.parse((await review(['-f', 'sarif'], grown.root)).stdout);
    const results = sarif.runs[0].results as Array<{ ruleId: string; baselineState: string }>;
    expect(results.find((r) => r.ruleId === 'code-smell/cognitive-complexity')?.baselineState).toBe('updated');
    expect(results).toHaveLength(json.newFindings.length);
    // The gate names what it fails on: here the change made an issue worse.
    const gated = await review(['--fail-on', 'info', '-f', 'json'], grown.root);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(/^codehealth: \d+ (worsened|new or worsened) findings? at or above info/m);
  });
});

describe('review: the gate', () => {
  it('fails on a new finding at or above --fail-on, and passes above the worst new severity', async () => {
    const change = await changeJson();
    const order = ['critical', 'high', 'medium', 'low', 'info'];
    const worst = Math.min(...change.newFindings.map((f) => order.indexOf(f.severity)));
    const failed = await review(['--fail-on', order[worst]!]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(new RegExp(`codehealth: \\d+ new findings? at or above ${order[worst]} \\(first: ${order[worst]} src/`));
    if (worst > 0) expect((await review(['--fail-on', order[worst - 1]!])).code).toBe(0);
    // An empty change (head = base) adds nothing to fail on.
    expect((await review(['--fail-on', 'info', '--head', 'main'])).code).toBe(0);
  });

  it('fails on readiness at or worse than --fail-on-readiness', async () => {
    const status = (await changeJson()).readiness.status;
    const r = await review(['--fail-on-readiness', 'needs_review']);
    expect(r.code).toBe(status === 'ready' ? 0 : 1);
    if (status !== 'ready') expect(r.stderr).toContain('codehealth: merge readiness is');
  });

  it('reads thresholds.review from codehealth.config.json; flags override it', async () => {
    const configured = cli.repo({ 'package.json': '{ "name": "demo", "type": "module" }\n', 'src/util.ts': 'export const one = 1;\n' });
    configured.git('checkout', '-q', '-b', 'feature');
    configured.write({ 'src/fresh.ts': rename(COMPLEX, 'freshRoute'), 'codehealth.config.json': '{ "thresholds": { "review": { "failOn": "info" } } }\n' });
    configured.commit('add a tangled function');
    const failed = await review([], configured.root);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/at or above info/);
    // A flag replaces the configured severity.
    expect((await review(['--fail-on', 'critical'], configured.root)).code).toBe(0);
    // From a subdirectory, the repository's config still applies (the review analyses the whole work tree).
    expect((await review([], join(configured.root, 'src'))).code).toBe(1);
    writeFileSync(join(configured.root, 'codehealth.config.json'), '{ "thresholds": { "review": { "failOn": "severe" } } }\n');
    const invalid = await review([], configured.root);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/^codehealth: .*failOn/);
  });
});

describe('review: cold, and with --full-base', () => {
  it('says what a cold review did not evaluate; --full-base assesses the base and keeps it for the next review', async () => {
    const own = cli.repo({ 'src/a.ts': 'export const a = 1;\n' });
    own.git('checkout', '-q', '-b', 'feature');
    own.write({ 'src/b.ts': rename(COMPLEX, 'fresh') });
    own.commit('add fresh');
    const reviewOwn = (argv: string[]) => run(['review', '--base', 'main', '-q', ...argv], { cwd: own.root });
    const cold = await reviewOwn([]);
    expect(cold.code).toBe(0);
    expect(cold.stdout).toMatch(/^Not evaluated\n {2}- cold review: no assessment of the merge base was cached/m);
    expect(cold.stdout).toMatch(/repository rules not evaluated \(\d+\): .*testing\/untested-module/);
    expect(cold.stdout).not.toMatch(/\[testing\/untested-module\]/);
    expect(cold.stdout).toMatch(/merge base findings of the changed files only\.$/m);
    const full = JSON.parse((await reviewOwn(['--full-base', '-f', 'json'])).stdout) as {
      baseline: string;
      evaluation: { mode: string };
      newFindings: Array<{ ruleId: string }>;
    };
    expect(full).toMatchObject({ baseline: 'analysed', evaluation: { mode: 'full' } });
    // The full review sees what the cold one could not: no test loads the new module.
    expect(full.newFindings.map((f) => f.ruleId)).toContain('testing/untested-module');
    const next = await reviewOwn([]);
    expect(next.stdout).not.toContain('Not evaluated');
    expect(next.stdout).toMatch(/merge base findings cached\.$/m);
  });
});

describe('review: bad input', () => {
  it('refuses an unknown revision, a bad flag value and an unknown flag with exit code 2 and one line', async () => {
    const unknown = await review(['--base', 'no-such-branch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^codehealth: 'no-such-branch' is not a commit of the repository/);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect((await review(['--fail-on', 'severe'])).stderr).toBe("codehealth: --fail-on expects one of critical, high, medium, low, info, got 'severe'\n");
    expect((await review(['--format', 'html'])).code).toBe(2);
    expect((await review(['--frobnicate'])).stderr).toContain("see 'codehealth review --help'");
  });

  it('parses flags strictly and documents them', async () => {
    expect(parseReviewArgs(['.', '--base', 'origin/main', '-f', 'sarif', '--fail-on', 'high', '--fail-on-readiness', 'blocked'])).toMatchObject({
      dir: '.',
      base: 'origin/main',
      format: 'sarif',
      gate: { failOn: 'high', failOnReadiness: 'blocked' },
    });
    const help = await run(['review', '--help']);
    expect(help.code).toBe(0);
    expect(parseReviewArgs(['--full-base']).fullBase).toBe(true);
    expect(parseReviewArgs([]).fullBase).toBe(false);
    for (const flag of ['--base', '--head', '--full-base', '--format', '--output', '--fail-on', '--fail-on-readiness', '--no-cache', '--quiet'])
      expect(help.stdout).toContain(flag);
  });
});
