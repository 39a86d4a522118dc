// A run that spreads the per-file pass and the repository rules over a worker thread gives the
// result of a run on the main thread alone: same findings in the same order, metrics, scores
// and conventions. Needs the built worker script and analyzers (as the pool does).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../di/create-engine.js';
import type { AssessmentResult } from './types.js';
import { workerScriptUrl } from './worker-pool.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';

const built = workerScriptUrl() !== undefined && existsSync(fileURLToPath(new URL('../../../analyzers/dist/index.js', import.meta.url)));

/** 64 modules in a chain, a copied block in every eighth, an unused export in every fifth, tests for a few. */
function files(): Record<string, string> {
  const out: Record<string, string> = { 'package.json': '{"name":"chain","main":"src/m0.ts"}' };
  for (let i = 0; i < 64; i++) {
    const lines = [i < 63 ? `import { step${i + 1} } from './m${i + 1}.js';` : '', `export function step${i}(n: number): number {`];
    lines.push(i < 63 ? `  return step${i + 1}(n) + ${i};` : `  return n;`, '}');
    if (i % 5 === 0) lines.push(`export const unused${i} = ${i};`);
    if (i % 8 === 0) {
      lines.push('export function total(items: number[]) {', '  let total = 0;', '  for (const item of items) {', '    if (item > 10) total += item * 2;');
      lines.push('    else total -= item;', '  }', '  return total > 100 ? total / 2 : total;', '}');
    }
    if (i % 7 === 0) lines.push('// TODO: simplify this step');
    out[`src/m${i}.ts`] = `${lines.join('\n')}\n`;
    if (i % 16 === 0) out[`test/m${i}.test.ts`] = `import { step${i} } from '../src/m${i}.js';\nit('steps', () => expect(step${i}(1)).toBeGreaterThan(0));\n`;
  }
  return out;
}

function comparable(result: AssessmentResult) {
  return {
    findings: result.findings.map((f) => [f.ruleId, f.filePath, f.anchor.lineStart, f.severity, f.title]),
    scores: result.scores,
    metrics: { ...result.metrics, durationMs: 0 },
    conventions: result.conventions,
    summaries: result.summaries.map((s) => ({ ...s, parse: { ...s.parse, parseMs: 0 } })),
  };
}

describe.skipIf(!built)('a run with a worker thread', () => {
  let repo: TestRepo;
  beforeAll(() => {
    repo = createGitRepo(files());
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  it('gives the result of a run on the main thread alone', async () => {
    const alone = await (await createEngine({ cacheDir: false, workers: 0 })).analyze(repo.root, { allowCodeConfig: false });
    const shared = await (await createEngine({ cacheDir: false, workers: 1 })).analyze(repo.root, { allowCodeConfig: false });
    expect(comparable(shared)).toEqual(comparable(alone));
    // Repository rules of several analyzers took part.
    const rules = new Set(alone.findings.map((f) => f.ruleId));
    for (const id of ['duplication/duplicated-code', 'dead-code/unused-export', 'compliance/debt-marker']) expect(rules).toContain(id);
    // Summaries carry the hash the inventory took for its cache look-up (not taken twice): the file's own.
    const sha = (path: string) => createHash('sha256').update(readFileSync(join(repo.root, path), 'utf8')).digest('hex');
    const code = shared.summaries.filter((s) => !s.skipped);
    expect(code.length).toBeGreaterThan(64);
    for (const s of code) expect(s.contentHash, s.path).toBe(sha(s.path));
  });
}, 120_000);
