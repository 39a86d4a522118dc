// `codehealth graph rebuild` as a process: argument and configuration errors, and a run on an
// embedded data dir (the rebuild itself is tested in the worker package, graph-rebuild.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, runCli, tempDirs } from '../fixtures/cli-process.js';

describe('codehealth graph rebuild', () => {
  const dirs = tempDirs();
  afterAll(() => dirs.cleanup());

  it.each([
    [['graph'], "codehealth: usage: codehealth graph rebuild [--project <id>] (see 'codehealth graph --help')\n"],
    [['graph', 'rebuild', '--project', 'nope'], 'codehealth: --project must be a project id (a UUID)\n'],
    [['graph', 'rebuild', '--force'], "codehealth: unknown option '--force' (see 'codehealth graph --help')\n"],
    [['graph', 'rebuild', '--project'], "codehealth: --project needs a project id (see 'codehealth graph --help')\n"],
  ])('%j → exit 2', async (args, stderr) => {
    expect(await runCli(args, { cwd: dirs.make() })).toEqual({ code: 2, stdout: '', stderr });
  });

  it('rebuilds nothing on a fresh data dir, and names an unreachable Neo4j', async () => {
    const cwd = dirs.make();
    const env = { CODEHEALTH_DATA_DIR: 'data' };
    await migratedDataDir(cwd);
    expect(await runCli(['graph', 'rebuild'], { cwd, env })).toEqual({
      code: 0,
      stdout: 'Rebuilt 0 repository graph(s) (0 files) in the database; 0 failed\n',
      stderr: '',
    });
    const down = await runCli(['graph', 'rebuild'], { cwd, env: { ...env, GRAPH_DB_HOST: '127.0.0.1:9' } });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/^codehealth: Neo4j at GRAPH_DB_HOST does not answer/);
  }, 60_000);
});
