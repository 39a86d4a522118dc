// `codehealth analyze` in process on real repositories with the real engine: what it assesses, the
// report formats, --output, progress, thresholds and the cache. Only the terminal is faked (fakeIo).
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRepo } from '../../../../test/helpers/git-repo.js';
import { sarifSchemaErrors } from '../../../../test/helpers/validate-sarif.js';
import { COMPLEX, run, useRealCli } from '../fixtures/real-cli.js';

const cli = useRealCli();
const ESC = '\u001b[';
const CLEAR_LINE = '\r\u001b[2K';

let complex: TestRepo;
beforeAll(() => {
  complex = cli.repo({
    'package.json': '{ "name": "demo", "type": "module" }\n',
    'src/complex.ts': COMPLEX,
    'src/util.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  });
});

interface JsonReport {
  run: { root: string; head_sha: string | null };
  assessment: { id: string; overall_score: number; overall_grade: string; [key: string]: unknown };
  issues: Array<{ rule_id: string; file_path: string; context_id: string }>;
  metrics: { files: { analysed: number } };
}

async function jsonReport(argv: string[], cwd: string): Promise<JsonReport> {
  const r = await run([...argv, '-f', 'json', '-q'], { cwd });
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout) as JsonReport;
}

/** The score and grade of `complex`, as the threshold messages print them. */
async function scoreOfComplex(): Promise<{ score: string; grade: string }> {
  const { assessment } = await jsonReport(['analyze'], complex.root);
  return { score: assessment.overall_score.toFixed(1), grade: assessment.overall_grade };
}

const cacheEntries = () => readdirSync(cli.cache.dir, { recursive: true }).length;

describe('analyze: what it assesses', () => {
  it('assesses the directory given relative to the working directory, by default the working directory', async () => {
    const here = await jsonReport(['analyze'], complex.root);
    expect(here.run).toMatchObject({ root: complex.root, head_sha: complex.git('rev-parse', 'HEAD') });
    expect((await jsonReport(['analyze', basename(complex.root)], dirname(complex.root))).run.root).toBe(complex.root);
    const sub = await jsonReport(['analyze', 'src'], complex.root);
    expect(sub.run.root).toBe(join(complex.root, 'src'));
  });

  it('writes file summaries to the cache unless --no-cache', async () => {
    // Content no earlier run has seen, so that every summary is a cache miss.
    const fresh = cli.repo({ 'src/a.ts': `export const id = '${randomUUID()}';\n`, 'src/b.ts': `export const other = '${randomUUID()}';\n` });
    const before = cacheEntries();
    expect((await run(['analyze', '-q', '--no-cache'], { cwd: fresh.root })).code).toBe(0);
    expect(cacheEntries()).toBe(before);
    expect((await run(['analyze', '-q'], { cwd: fresh.root })).code).toBe(0);
    expect(cacheEntries()).toBeGreaterThan(before);
  });
});

describe('analyze: reports', () => {
  it('prints JSON with the spec assessment, every issue and the metrics', async () => {
    const report = await jsonReport(['analyze'], complex.root);
    expect(Object.keys(report)).toEqual(['run', 'assessment', 'issues', 'metrics']);
    expect(report.assessment).toMatchObject({ trigger_type: 'manual', status: 'completed' });
    expect(report.assessment.code_smell_score).toBeLessThan(100);
    const issue = report.issues.find((i) => i.rule_id === 'code-smell/cognitive-complexity');
    expect(issue).toMatchObject({ file_path: 'src/complex.ts', context_id: report.assessment.id });
    expect(report.metrics.files.analysed).toBe(2);
  });

  it('prints a schema-valid SARIF log with the same issues', async () => {
    const r = await run(['analyze', '--format', 'sarif', '-q'], { cwd: complex.root });
    const log = JSON.parse(r.stdout);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toHaveLength((await jsonReport(['analyze'], complex.root)).issues.length);
    const result = log.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'code-smell/cognitive-complexity');
    expect(result.locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'src/complex.ts', uriBaseId: 'SRCROOT' });
  });

  it('prints Markdown and text; colour only on a TTY without NO_COLOR', async () => {
    const cwd = complex.root;
    expect((await run(['analyze', '-f', 'markdown', '-q'], { cwd })).stdout).toMatch(/^## CodeHealth report\n/);
    const { score, grade } = await scoreOfComplex();
    const plain = await run(['analyze', '-q'], { cwd });
    expect(plain.stdout).toContain(`Overall  ${score} / 100   grade ${grade}`);
    expect(plain.stdout).toContain('src/complex.ts:1');
    expect(plain.stdout).not.toContain(ESC);
    expect((await run(['analyze', '-q'], { cwd, tty: true })).stdout).toContain(ESC);
    expect((await run(['analyze', '-q'], { cwd, tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await run(['analyze', '-q'], { cwd, tty: true, env: { NO_COLOR: '' } })).stdout).toContain(ESC);
  });

  it('writes the report to --output, relative to the working directory, without colour, and says so unless quiet', async () => {
    const out = cli.tempDir('codehealth-out-');
    const r = await run(['analyze', complex.root, '-o', 'report.txt'], { cwd: out, tty: true });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr.endsWith('Report written to report.txt\n')).toBe(true);
    const written = await readFile(join(out, 'report.txt'), 'utf8');
    expect(written).toContain(`Overall  ${(await scoreOfComplex()).score} / 100`);
    expect(written).not.toContain(ESC);
    expect(await run(['analyze', complex.root, '-o', 'report.txt', '-q'], { cwd: out })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await run(['analyze', complex.root, '-o', 'missing/dir/report.txt', '-q'], { cwd: out })).toMatchObject({
      code: 2,
      stderr: 'codehealth: cannot write the report to missing/dir/report.txt: ENOENT\n',
    });
  });
});

describe('analyze: progress', () => {
  it('writes a few plain lines when stderr is not a terminal', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 160; i++) files[`src/m${i}.ts`] = `export const m${i} = ${i};\n`;
    const many = cli.repo(files);
    const r = await run(['analyze', '-f', 'json', '--no-cache'], { cwd: many.root });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).metrics.files.analysed).toBe(160);
    const lines = r.stderr.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(`inventory: Listing files in ${many.root}`);
    for (const line of lines) expect(line).toMatch(/^(inventory|parse|graph|repository-rules|scoring|done): \S/);
    // The engine reports each 10% of these files (a batch of 16); the log keeps one line per quarter.
    const parse = lines.filter((line) => line.startsWith('parse: '));
    expect(parse.length).toBeGreaterThanOrEqual(2);
    expect(parse.length).toBeLessThanOrEqual(5);
    expect(parse.at(-1)).toBe('parse: Analysed 160/160 files (100%)');
    expect(lines.at(-1)).toMatch(/^done: Done in \d+\.\d s$/);
  });

  it('redraws one line, cut to the terminal width, on a terminal and clears it before the report', async () => {
    const deep = cli.repo({ 'src/a.ts': 'export const a = 1;\n' }, 'codehealth-cli-a-directory-name-too-long-for-the-terminal-');
    const r = await run(['analyze', '-f', 'json'], { cwd: deep.root, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr.startsWith(`${CLEAR_LINE}inventory: Listing files in /`)).toBe(true);
    expect(r.stderr.endsWith(CLEAR_LINE)).toBe(true);
    expect(r.stderr).not.toContain('\n');
    const drawn = r.stderr.split(CLEAR_LINE).filter(Boolean);
    expect(drawn[0]).toMatch(/^inventory: .{47}…$/); // 60 columns, less one for the cursor
    for (const line of drawn) expect(line.length).toBeLessThanOrEqual(59);
  });

  it('writes nothing with --quiet', async () => {
    const r = await run(['analyze', '--quiet'], { cwd: complex.root, tty: true });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('Overall');
  });
});

describe('analyze: thresholds', () => {
  it('exits 1 below --fail-under, by score or grade, with the reason on stderr, after the report', async () => {
    const cwd = complex.root;
    const { score, grade } = await scoreOfComplex();
    expect(Number(score)).toBeLessThan(100);
    expect(grade).not.toBe('A');
    const below = await run(['analyze', '-q', '--fail-under', '100'], { cwd });
    expect(below).toMatchObject({ code: 1, stderr: `codehealth: overall score ${score} (grade ${grade}) is below score 100\n` });
    expect(below.stdout).toContain('Overall');
    expect(await run(['analyze', '-q', '--fail-under', 'a'], { cwd })).toMatchObject({
      code: 1,
      stderr: `codehealth: overall score ${score} (grade ${grade}) is below grade A\n`,
    });
    expect(await run(['analyze', '-q', '--fail-under', score], { cwd })).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['analyze', '-q', '--fail-under', '0'], { cwd })).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['analyze', '-q', '--fail-under', grade], { cwd })).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['analyze', '-q', '--fail-under', 'F'], { cwd })).toMatchObject({ code: 0, stderr: '' });
  });

  it("takes the config's thresholds.failUnder when the flag is absent, from JSON or code config; the flag wins", async () => {
    const { score, grade } = await scoreOfComplex();
    const strict = cli.repo({ 'codehealth.config.json': '{ "thresholds": { "failUnder": "A" } }\n', 'src/complex.ts': COMPLEX });
    // A config file is itself a file of the repository (compliance, consistency look at it), so the
    // score of these repos is read from the message rather than assumed equal to the bare repo's.
    expect(await run(['analyze', '-q'], { cwd: strict.root })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^codehealth: overall score \d+(\.\d)? \(grade [B-F]\) is below grade A\n$/),
    });
    expect(await run(['analyze', '-q', '--fail-under', '0'], { cwd: strict.root })).toMatchObject({ code: 0, stderr: '' });
    // The CLI trusts the directory the user chose, so a config written as code counts too.
    const code = cli.repo({ 'codehealth.config.mjs': 'export default { thresholds: { failUnder: 100 } };\n', 'src/complex.ts': COMPLEX });
    expect(await run(['analyze', '-q'], { cwd: code.root })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^codehealth: overall score \d+(\.\d)? \(grade [A-F]\) is below score 100\n$/),
    });
    void grade;
    const lenient = cli.repo({ 'codehealth.config.json': `{ "thresholds": { "failUnder": ${Math.floor(Number(score)) - 5} } }\n`, 'src/complex.ts': COMPLEX });
    expect(await run(['analyze', '-q'], { cwd: lenient.root })).toMatchObject({ code: 0, stderr: '' });
    expect((await run(['analyze', '-q', '--fail-under', '100'], { cwd: lenient.root })).code).toBe(1);
  });
});

describe('analyze: no grade', () => {
  const reason = 'no TypeScript or JavaScript files: 3 Python files are not analysed';
  let python: TestRepo;
  beforeAll(() => {
    python = cli.repo({
      'app/main.py': 'import os\n\ndef run(cmd):\n    os.system(cmd)\n    return eval(cmd)\n',
      'app/util.py': 'def double(x):\n    return x * 2\n',
      'scripts/deploy.py': 'import os\nos.system("make deploy")\n',
    });
  });

  it('says so in every report format, and assesses no category', async () => {
    const text = await run(['analyze', '-q'], { cwd: python.root });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toContain(`Overall  no grade: ${reason}\n`);
    expect(text.stdout.match(/not assessed\n/g)).toHaveLength(8);
    expect(text.stdout).not.toMatch(/grade [A-F]/);
    const markdown = await run(['analyze', '-q', '-f', 'markdown'], { cwd: python.root });
    expect(markdown.stdout).toContain(`**No grade: ${reason}**`);
    const { assessment, metrics } = (await jsonReport(['analyze'], python.root)) as JsonReport & {
      assessment: { graded: boolean; not_graded_reason: string; not_assessed: Record<string, string> };
      metrics: { categories: Record<string, { score: number | null; assessed: boolean; not_assessed_reason: string }> };
    };
    expect(assessment).toMatchObject({ overall_score: 0, overall_grade: 'F', graded: false, not_graded_reason: reason });
    expect(Object.values(assessment.not_assessed)).toEqual(Array(8).fill(reason));
    expect(Object.values(metrics.categories).map((c) => [c.score, c.assessed, c.not_assessed_reason])).toEqual(Array(8).fill([null, false, reason]));
  });

  it('fails --fail-under, however low, with the reason, and the config threshold the same way', async () => {
    for (const threshold of ['0', 'F', '70']) {
      expect(await run(['analyze', '-q', '--fail-under', threshold], { cwd: python.root })).toMatchObject({
        code: 1,
        stderr: `codehealth: no grade: ${reason}; ${threshold === 'F' ? 'grade F' : `score ${threshold}`} is not met\n`,
      });
    }
    const configured = cli.repo({ 'codehealth.config.json': '{ "thresholds": { "failUnder": "D" } }\n', 'tool.py': 'print(1)\n' });
    expect(await run(['analyze', '-q'], { cwd: configured.root })).toMatchObject({
      code: 1,
      stderr: 'codehealth: no grade: no TypeScript or JavaScript files: 1 Python file is not analysed; grade D is not met\n',
    });
  });
});

describe('analyze --untrusted', () => {
  it('runs no code the directory names: a code config is refused, a config plugin is reported and not imported', async () => {
    const evil =
      "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./TRACE', import.meta.url), '1');\nexport default { name: 'evil', analyzers: [] };\n";
    const repo = cli.repo({
      'codehealth.config.json': '{ "plugins": ["./tools/evil.mjs"] }\n',
      'tools/evil.mjs': evil,
      'src/util.ts': 'export const add = (a: number, b: number): number => a + b;\n',
    });
    const report = await jsonReport(['analyze', '--untrusted'], repo.root);
    expect(readdirSync(join(repo.root, 'tools'))).toEqual(['evil.mjs']);
    expect(report.issues.filter((i) => i.rule_id === 'config/plugin-not-installed').map((i) => i.file_path)).toEqual(['codehealth.config.json']);
    // Without the flag the user's own directory is trusted: the plugin loads.
    expect((await run(['analyze', '-q', '-f', 'json'], { cwd: repo.root })).code).toBe(0);
    expect(readdirSync(join(repo.root, 'tools')).sort()).toEqual(['TRACE', 'evil.mjs']);
    const code = cli.repo({ 'codehealth.config.mjs': 'export default {};\n', 'src/util.ts': 'export const a = 1;\n' });
    expect(await run(['analyze', '-q', '--untrusted'], { cwd: code.root })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('codehealth.config.mjs is code'),
    });
  });
});
