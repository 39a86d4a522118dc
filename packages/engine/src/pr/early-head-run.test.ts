// Head's run started before its findings scope is known: it summarises and builds its graph, then
// waits for the scope; a pipeline that fails meanwhile ends it with its error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../di/create-engine.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { localCheckouts, type CommitCheckout } from './local-checkouts.js';
import { startHeadRun } from './early-head-run.js';

let engine: Engine;
let repo: TestRepo;
let incremental: { baseCommit: string; headCommit: string; changedPaths: string[] };
const open: CommitCheckout[] = [];

beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
  repo = createGitRepo({
    'src/a.ts': 'export function a(n: number) {\n  return n == 1 ? JSON.parse("1") : n;\n}\n',
    'src/b.ts': "import { a } from './a.js';\n// TODO: b\nexport const b = a(2);\n",
  });
  const baseCommit = repo.git('rev-parse', 'HEAD');
  const base = await localCheckouts(repo.root).checkout(baseCommit);
  open.push(base);
  await engine.analyze(base.path, { allowCodeConfig: false });
  repo.write({ 'src/a.ts': 'export function a(n: number) {\n  // FIXME: tighten\n  return n == 1 ? JSON.parse("1") : n;\n}\n' });
  incremental = { baseCommit, headCommit: repo.commit('a: note'), changedPaths: ['src/a.ts'] };
});
afterAll(async () => {
  for (const checkout of open) await checkout.dispose();
});

async function head(): Promise<string> {
  const checkout = await localCheckouts(repo.root).checkout(incremental.headCommit);
  open.push(checkout);
  return checkout.path;
}

describe('startHeadRun', () => {
  it('summarises, then keeps findings in the scope it is given', async () => {
    const run = startHeadRun(engine, await head(), incremental);
    await run.summarised;
    let seen: string[] = [];
    run.provideScope((graph) => {
      seen = [...graph.modules.keys()].sort();
      return ['src/a.ts'];
    });
    const result = await run.result;
    expect(result.derivedFrom).toBe(incremental.baseCommit);
    expect(seen).toEqual(['src/a.ts', 'src/b.ts']);
    expect(new Set(result.findings.map((f) => f.filePath))).toEqual(new Set(['src/a.ts']));
    expect(result.findings.map((f) => f.ruleId)).toContain('compliance/debt-marker');
  });

  it('ends with the error it is given instead of a scope', async () => {
    const run = startHeadRun(engine, await head(), incremental);
    run.provideScope(new Error('git diff failed'));
    await expect(run.result).rejects.toThrow('git diff failed');
    await run.summarised;
  });
});
