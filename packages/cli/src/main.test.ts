// The command in process on real repositories with the real engine: dispatch, input and engine
// errors, interrupts. Only the terminal is faked (fakeIo).
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRepo } from '../../../test/helpers/git-repo.js';
import { COMPLEX, run, throwingPlugin, useRealCli } from './fixtures/real-cli.js';
import { main, USAGE } from './main.js';
import { fakeIo } from './fixtures/fake-io.js';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const cli = useRealCli();

let repo: TestRepo;
beforeAll(() => {
  repo = cli.repo({ 'README.md': '# repo\n', 'src/complex.ts': COMPLEX, 'src/util.ts': 'export const add = (a: number, b: number): number => a + b;\n' });
});

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

  it('shows the options of analyze without running it', async () => {
    const { code, stdout, stderr } = await run(['analyze', '--help'], { cwd: repo.root });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: codehealth analyze \[dir\] \[options\]/);
    for (const flag of ['--format', '--output', '--fail-under', '--no-cache', '--quiet']) expect(stdout).toContain(flag);
    expect(stderr).toBe(''); // a run would have written progress
  });
});

// Without --quiet, a run that started would write progress before the error line.
describe('analyze: input errors', () => {
  it('refuses an unknown flag in one line, exit 2, without running', async () => {
    const r = await run(['analyze', '--fromat', 'json'], { cwd: repo.root });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: "codehealth: unknown option '--fromat' (see 'codehealth analyze --help')\n" });
  });

  it('refuses a missing directory and a file without running', async () => {
    expect(await run(['analyze', 'nope'], { cwd: repo.root })).toMatchObject({ code: 2, stdout: '', stderr: 'codehealth: no such directory: nope\n' });
    expect(await run(['analyze', 'README.md'], { cwd: repo.root })).toMatchObject({ code: 2, stderr: 'codehealth: not a directory: README.md\n' });
  });

  it('refuses a malformed threshold without running', async () => {
    expect(await run(['analyze', '--fail-under', '120'], { cwd: repo.root })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "codehealth: --fail-under expects a score from 0 to 100 or a grade A-F, got '120'\n",
    });
  });
});

describe('analyze: engine errors', () => {
  it('reports an invalid config and a missing plugin in one line, exit 2', async () => {
    const bad = cli.repo({ 'codehealth.config.json': '{ "rulez": {} }\n', 'src/a.ts': 'export const a = 1;\n' });
    const config = await run(['analyze', '-q'], { cwd: bad.root });
    expect(config).toMatchObject({ code: 2, stdout: '' });
    expect(config.stderr).toMatch(/^codehealth: invalid config codehealth\.config\.json: [^\n]*rulez[^\n]*\n$/);

    const missing = cli.repo({ 'codehealth.config.json': '{ "plugins": ["./missing-plugin.mjs"] }\n', 'src/a.ts': 'export const a = 1;\n' });
    expect(await run(['analyze', '-q'], { cwd: missing.root })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `codehealth: plugin "./missing-plugin.mjs" not found at ${join(missing.root, 'missing-plugin.mjs')}\n`,
    });
  });

  it('reports a directory that vanished once the run started as a user error, exit 2', async () => {
    const doomed = cli.repo({ 'src/a.ts': 'export const a = 1;\n' });
    const r = await run(['analyze'], { cwd: doomed.root, onStderr: (chunk) => chunk.startsWith('inventory:') && rmSync(doomed.root, { recursive: true }) });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`inventory: Listing files in ${doomed.root}\ncodehealth: directory not found: ${doomed.root}\n`);
  });

  it('shows an error a plugin marks as exposed as is, on one line, exit 2', async () => {
    const exposed = cli.repo({
      'codehealth.config.json': '{ "plugins": ["./boom-plugin.mjs"] }\n',
      'boom-plugin.mjs': throwingPlugin("Object.assign(new Error('boom: the service is unreachable\\n  check the token'), { expose: true })"),
      'src/a.ts': 'export const a = 1;\n',
    });
    expect(await run(['analyze', '-q'], { cwd: exposed.root })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'codehealth: boom: the service is unreachable check the token\n',
    });
  });

  it('reports anything else as an internal error, exit 70, with a stack only in debug mode', async () => {
    const broken = cli.repo({
      'codehealth.config.json': '{ "plugins": ["./boom-plugin.mjs"] }\n',
      'boom-plugin.mjs': throwingPlugin("new Error('kaboom')"),
      'src/a.ts': 'export const a = 1;\n',
    });
    expect(await run(['analyze', '-q'], { cwd: broken.root })).toMatchObject({ code: 70, stdout: '', stderr: 'codehealth: internal error: kaboom\n' });
    const debug = await run(['analyze', '-q'], { cwd: broken.root, env: { CODEHEALTH_DEBUG: '1' } });
    expect(debug).toMatchObject({ code: 70, stdout: '' });
    expect(debug.stderr).toMatch(/^codehealth: internal error: kaboom\nError: kaboom\n\s+at [^\n]*boom-plugin\.mjs/);
  });
});

describe('analyze: interrupts', () => {
  it('aborts the run on SIGINT and exits 130 without a report', async () => {
    let handled: boolean | undefined;
    const fake = fakeIo({ cwd: repo.root, onStderr: (chunk, self) => chunk.startsWith('inventory:') && (handled = self.interrupt()) });
    expect(await main(['analyze', '-f', 'json'], fake.io)).toBe(130);
    expect(handled).toBe(true);
    expect(fake.stdout()).toBe('');
    // The engine stopped before the per-file pass: no progress after the first line.
    expect(fake.stderr()).toBe(`inventory: Listing files in ${repo.root}\ncodehealth: interrupted\n`);
    expect(fake.interrupt()).toBe(false); // the handler is gone once the run is over
  });

  it('drops the result of an engine that finished despite the interrupt', async () => {
    // Ctrl-C on the engine's last progress event: it checks the signal no more and returns a result.
    const fake = fakeIo({ cwd: repo.root, onStderr: (chunk, self) => chunk.startsWith('done:') && self.interrupt() });
    expect(await main(['analyze', '-f', 'json'], fake.io)).toBe(130);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toMatch(/\ndone: Done in [\d.]+ s\ncodehealth: interrupted\n$/);
  });
});
