// The command in process, with a fake engine: dispatch, formats, thresholds, errors, interrupts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeOptions, AssessmentResult, CreateEngineOptions } from '@codehealth/engine';
import { makeAssessmentResult } from '../../engine/src/report/fixtures/assessment-result.js';
import { sarifSchemaErrors } from '../../engine/src/report/fixtures/validate-sarif.js';
import { renderMarkdown, renderText, toJsonReport, toSarif } from '@codehealth/engine';
import type { AnalyzeDeps } from './commands/analyze.js';
import { fakeIo } from './fixtures/fake-io.js';
import { main, USAGE } from './main.js';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

let repo: string;
let file: string;
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'codehealth-cli-'));
  file = join(repo, 'README.md');
  await writeFile(file, '# repo\n');
});
afterAll(() => rm(repo, { recursive: true, force: true }));

interface Call {
  engineOptions: CreateEngineOptions;
  dir: string;
  options: AnalyzeOptions;
}

/** An engine that returns `result` (or runs `behave`) and records how it was called. */
function fakeEngine(result: AssessmentResult = makeAssessmentResult(), behave?: (options: AnalyzeOptions) => Promise<AssessmentResult>) {
  const calls: Call[] = [];
  const deps: AnalyzeDeps = {
    loadEngine: async () => ({ createEngine, toJsonReport, toSarif, renderText, renderMarkdown }),
  };
  async function createEngine(engineOptions: CreateEngineOptions) {
    return {
      async analyze(dir: string, options: AnalyzeOptions = {}) {
        calls.push({ engineOptions, dir, options });
        options.onProgress?.({ stage: 'inventory', message: 'listing files' });
        options.onProgress?.({ stage: 'parse', message: 'parsing', percent: 10, done: 1, total: 10 });
        options.onProgress?.({ stage: 'parse', message: 'parsing', percent: 20, done: 2, total: 10 });
        options.onProgress?.({ stage: 'parse', message: 'parsing', percent: 60, done: 6, total: 10 });
        options.onProgress?.({ stage: 'done', message: 'finished', percent: 100 });
        return behave ? behave(options) : result;
      },
    };
  }
  return { deps, calls };
}

async function run(argv: string[], options: Parameters<typeof fakeIo>[0] & { engine?: ReturnType<typeof fakeEngine> } = {}) {
  const fake = fakeIo({ cwd: repo, ...options });
  const engine = options.engine ?? fakeEngine();
  const code = await main(argv, fake.io, engine.deps);
  return { code, stdout: fake.stdout(), stderr: fake.stderr(), calls: engine.calls, fake };
}

describe('dispatch', () => {
  it('prints the version and the usage', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(await run(['-v'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(await run(['--help'])).toMatchObject({ code: 0, stdout: USAGE, stderr: '' });
    expect(USAGE).toContain('analyze [dir]');
  });

  it('refuses a missing or unknown command with one line and the usage, exit 2', async () => {
    expect(await run([])).toMatchObject({ code: 2, stdout: '', stderr: USAGE });
    expect(await run(['analyse'])).toMatchObject({ code: 2, stdout: '', stderr: `codehealth: unknown command 'analyse'\n${USAGE}` });
    expect(await run(['--verbose'])).toMatchObject({ code: 2, stderr: `codehealth: unknown option '--verbose'\n${USAGE}` });
  });

  it('shows the options of analyze', async () => {
    const { code, stdout, calls } = await run(['analyze', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: codehealth analyze \[dir\] \[options\]/);
    for (const flag of ['--format', '--output', '--fail-under', '--no-cache', '--quiet']) expect(stdout).toContain(flag);
    expect(calls).toHaveLength(0);
  });
});

describe('analyze: input errors', () => {
  it('refuses an unknown flag in one line, exit 2, without running', async () => {
    const r = await run(['analyze', '--fromat', 'json']);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: "codehealth: unknown option '--fromat' (see 'codehealth analyze --help')\n", calls: [] });
  });

  it('refuses a missing directory and a file', async () => {
    expect(await run(['analyze', 'nope'])).toMatchObject({ code: 2, stderr: 'codehealth: no such directory: nope\n', calls: [] });
    expect(await run(['analyze', 'README.md'])).toMatchObject({ code: 2, stderr: 'codehealth: not a directory: README.md\n' });
  });

  it('reports the engine\'s user errors in one line, exit 2', async () => {
    for (const name of ['ConfigError', 'SnapshotError', 'PluginLoadError']) {
      const failing = fakeEngine(undefined, async () => {
        throw Object.assign(new Error(`codehealth.config.json: rules.x: bad\n  more detail`), { name });
      });
      const r = await run(['analyze', '-q'], { engine: failing });
      expect(r, name).toMatchObject({ code: 2, stdout: '', stderr: 'codehealth: codehealth.config.json: rules.x: bad more detail\n' });
    }
    const exposed = fakeEngine(undefined, async () => {
      throw Object.assign(new Error('plugin x has no analyzers'), { expose: true });
    });
    expect(await run(['analyze', '-q'], { engine: exposed })).toMatchObject({ code: 2, stderr: 'codehealth: plugin x has no analyzers\n' });
  });

  it('reports anything else as an internal error, exit 70, with a stack only in debug mode', async () => {
    const broken = fakeEngine(undefined, async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    const r = await run(['analyze', '-q'], { engine: broken });
    expect(r).toMatchObject({ code: 70, stdout: '', stderr: "codehealth: internal error: Cannot read properties of undefined (reading 'x')\n" });
    const debug = await run(['analyze', '-q'], { engine: broken, env: { CODEHEALTH_DEBUG: '1' } });
    expect(debug.code).toBe(70);
    expect(debug.stderr).toMatch(/^codehealth: internal error: .*\nTypeError: Cannot read[^\n]*\n\s+at /);
  });
});

describe('analyze: reports', () => {
  it('runs the engine on the resolved directory with code config allowed and a signal', async () => {
    const r = await run(['analyze', '.', '-q']);
    expect(r.code).toBe(0);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0].dir).toBe(repo);
    expect(r.calls[0].engineOptions).toEqual({});
    expect(r.calls[0].options).toMatchObject({ allowCodeConfig: true });
    expect(r.calls[0].options.signal).toBeInstanceOf(AbortSignal);
    expect((await run(['analyze', '--no-cache', '-q'])).calls[0].engineOptions).toEqual({ cacheDir: false });
  });

  it('prints JSON with the spec assessment, every issue and the metrics', async () => {
    const r = await run(['analyze', '--format', 'json', '-q']);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(['run', 'assessment', 'issues', 'metrics']);
    expect(report.assessment).toMatchObject({ overall_score: 78.4, overall_grade: 'C', trigger_type: 'manual', status: 'completed' });
    expect(report.issues).toHaveLength(3);
    expect(report.issues[0].context_id).toBe(report.assessment.id);
    expect(r.stderr).toBe('');
  });

  it('prints a schema-valid SARIF log', async () => {
    const r = await run(['analyze', '--format', 'sarif', '-q']);
    const log = JSON.parse(r.stdout);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toHaveLength(3);
  });

  it('prints Markdown and text; colour only on a TTY without NO_COLOR', async () => {
    expect((await run(['analyze', '-f', 'markdown', '-q'])).stdout).toMatch(/^## CodeHealth report\n/);
    const plain = await run(['analyze', '-q']);
    expect(plain.stdout).toContain('Overall  78.4 / 100   grade C');
    expect(plain.stdout).not.toContain('\u001b[');
    expect((await run(['analyze', '-q'], { tty: true })).stdout).toContain('\u001b[');
    expect((await run(['analyze', '-q'], { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\u001b[');
    expect((await run(['analyze', '-q'], { tty: true, env: { NO_COLOR: '' } })).stdout).toContain('\u001b[');
  });

  it('writes the report to --output, without colour, and says so unless quiet', async () => {
    const r = await run(['analyze', '-o', 'report.txt'], { tty: true });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr.endsWith('Report written to report.txt\n')).toBe(true);
    const written = await readFile(join(repo, 'report.txt'), 'utf8');
    expect(written).toContain('Overall  78.4 / 100');
    expect(written).not.toContain('\u001b[');
    expect((await run(['analyze', '-o', 'report.txt', '-q'])).stderr).toBe('');
    expect(await run(['analyze', '-o', 'missing/dir/report.txt', '-q'])).toMatchObject({
      code: 2,
      stderr: 'codehealth: cannot write the report to missing/dir/report.txt: ENOENT\n',
    });
  });
});

describe('analyze: progress', () => {
  it('writes a few plain lines when stderr is not a terminal', async () => {
    const r = await run(['analyze', '-f', 'json']);
    expect(r.stderr).toBe('inventory: listing files\nparse: parsing 1/10 (10%)\nparse: parsing 6/10 (60%)\ndone: finished\n');
    expect(JSON.parse(r.stdout).assessment).toBeDefined();
  });

  it('redraws one line on a terminal and clears it before the report', async () => {
    const r = await run(['analyze', '-f', 'json'], { tty: true });
    expect(r.stderr.startsWith('\r\u001b[2Kinventory: listing files\r\u001b[2Kparse: parsing 1/10 (10%)')).toBe(true);
    expect(r.stderr.endsWith('\r\u001b[2K')).toBe(true);
    expect(r.stderr).not.toContain('\n');
  });

  it('writes nothing with --quiet', async () => {
    expect((await run(['analyze', '--quiet'], { tty: true })).stderr).toBe('');
  });
});

describe('analyze: thresholds', () => {
  it('exits 1 below --fail-under, by score or grade, with the reason on stderr', async () => {
    expect(await run(['analyze', '-q', '--fail-under', '80'])).toMatchObject({
      code: 1,
      stderr: 'codehealth: overall score 78.4 (grade C) is below score 80\n',
    });
    expect(await run(['analyze', '-q', '--fail-under', 'b'])).toMatchObject({ code: 1, stderr: 'codehealth: overall score 78.4 (grade C) is below grade B\n' });
    expect(await run(['analyze', '-q', '--fail-under', '78.4'])).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['analyze', '-q', '--fail-under', 'C'])).toMatchObject({ code: 0 });
    expect((await run(['analyze', '-q', '--fail-under', '80'])).stdout).toContain('Overall');
  });

  it('takes the config\'s thresholds.failUnder when the flag is absent; the flag wins', async () => {
    const strict = fakeEngine(makeAssessmentResult({ config: { thresholds: { failUnder: 'A' } } }));
    expect(await run(['analyze', '-q'], { engine: strict })).toMatchObject({ code: 1, stderr: 'codehealth: overall score 78.4 (grade C) is below grade A\n' });
    expect((await run(['analyze', '-q', '--fail-under', '50'], { engine: strict })).code).toBe(0);
    const lenient = fakeEngine(makeAssessmentResult({ config: { thresholds: { failUnder: 60 } } }));
    expect((await run(['analyze', '-q'], { engine: lenient })).code).toBe(0);
  });

  it('refuses a malformed threshold before running', async () => {
    expect(await run(['analyze', '--fail-under', '120'])).toMatchObject({
      code: 2,
      stderr: "codehealth: --fail-under expects a score from 0 to 100 or a grade A-F, got '120'\n",
      calls: [],
    });
  });
});

describe('analyze: interrupts', () => {
  it('aborts the run on SIGINT and exits 130 without a report', async () => {
    const fake = fakeIo({ cwd: repo });
    const waiting = fakeEngine(undefined, (options) => {
      expect(fake.interrupt()).toBe(true);
      return new Promise((_, reject) => {
        const fail = () => reject(Object.assign(new Error('analysis aborted'), { name: 'AbortError', expose: true }));
        if (options.signal?.aborted) fail();
        else options.signal?.addEventListener('abort', fail);
      });
    });
    const code = await main(['analyze', '-q'], fake.io, waiting.deps);
    expect(code).toBe(130);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe('codehealth: interrupted\n');
    expect(fake.interrupt()).toBe(false);
  });

  it('drops the result of an engine that finished despite the interrupt', async () => {
    const fake = fakeIo({ cwd: repo });
    const stubborn = fakeEngine(undefined, async () => {
      fake.interrupt();
      return makeAssessmentResult();
    });
    expect(await main(['analyze', '-q'], fake.io, stubborn.deps)).toBe(130);
    expect(fake.stdout()).toBe('');
  });
});
