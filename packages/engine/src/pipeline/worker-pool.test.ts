// The worker pool against real worker threads (the built worker script and the built analyzers):
// closing never cuts a worker short, whether it is still loading or in the middle of a batch; the
// rules worker, holding summaries it made and was sent, runs repository rules as this thread would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '../contracts/analyzer.js';
import type { RepoFile } from '../snapshot/types.js';
import { createSnapshot } from '../snapshot/snapshot.js';
import { buildRepositoryGraph } from '../graph/repository-graph.js';
import { buildRuleSet } from '../plugins/rule-set.js';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { analyzeFileSource } from './analyze-file.js';
import { groupsOf, publishOutcomes, runRepositoryRules, type RuleOutcome } from './repository-rules.js';
import { FilePool, workerScriptUrl } from './worker-pool.js';
import { skipWithoutBuild } from '../../../../test/helpers/built-packages.js';

const script = workerScriptUrl();
const analyzers = new URL('../../../analyzers/dist/index.js', import.meta.url);
const skip = skipWithoutBuild('the worker pool against real worker threads');

function item(index: number) {
  const source = Array.from({ length: 200 }, (_, i) => `export function f${i}(a: number) { return a > ${i} ? a : -a; }`).join('\n');
  const file: RepoFile = { path: `src/f${index}.ts`, language: 'typescript', kind: 'source', sizeBytes: source.length };
  return { file, source, rules: true };
}

describe.skipIf(skip)(
  'FilePool',
  () => {
    it('closes a pool whose workers are still loading', async () => {
      for (let round = 0; round < 3; round++) {
        const pool = new FilePool(script!, 2, { pluginUrls: [analyzers.href], config: {} });
        await pool.close();
      }
      // Reaching this line means the process survived.
      expect(true).toBe(true);
    });

    it('lets a batch in flight finish before its worker stops', async () => {
      const pool = new FilePool(script!, 1, { pluginUrls: [analyzers.href], config: {} });
      const batch = pool.run([item(0), item(1)], 0);
      const closed = pool.close();
      const summaries = await batch;
      await closed;
      expect(summaries.map((s) => [s.path, s.module.exports.length, s.skipped])).toEqual([
        ['src/f0.ts', 200, undefined],
        ['src/f1.ts', 200, undefined],
      ]);
      await expect(pool.run([item(2)], 0)).rejects.toThrow('closed');
    });

    it('starts workers in a process run with V8 flags, which workers refuse in execArgv', () => {
      const poolUrl = new URL('../../dist/pipeline/worker-pool.js', import.meta.url).href;
      const program = [
        `const { FilePool, workerScriptUrl } = await import(${JSON.stringify(poolUrl)});`,
        `const pool = new FilePool(workerScriptUrl(), 1, { pluginUrls: [${JSON.stringify(analyzers.href)}], config: {} });`,
        "const [s] = await pool.run([{ file: { path: 'a.ts', language: 'typescript', kind: 'source', sizeBytes: 19 }, source: 'export const a = 1;', rules: true }], 0);",
        'await pool.close();',
        'console.log(s.module.exports.map((e) => e.name).join());',
      ].join('\n');
      const dir = mkdtempSync(join(tmpdir(), 'codehealth-flags-'));
      try {
        writeFileSync(join(dir, 'run.mjs'), program);
        const out = execFileSync(process.execPath, ['--max-old-space-size=2048', '--stack-size=2000', join(dir, 'run.mjs')], { encoding: 'utf8' });
        expect(out.trim()).toBe('a');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('runs repository rules in the rules worker with the summaries it made and was sent, as this thread would', async () => {
      const block = (name: string) =>
        `export function ${name}(items: number[]) {\n  let total = 0;\n  for (const item of items) {\n    if (item > 10) total += item * 2;\n    else total -= item;\n  }\n  return total > 100 ? total / 2 : total;\n}\n`;
      const repo = createGitRepo({
        'package.json': '{"name":"demo","main":"src/index.ts"}',
        'src/index.ts': "export { first } from './a.js';\n",
        'src/a.ts': `${block('first')}// TODO: merge with b\n`,
        'src/b.ts': block('second'),
        'src/a.test.ts': "import { first } from './a.js';\nimport { it, expect } from 'vitest';\nit('adds', () => expect(first([20])).toBe(40));\n",
      });
      const pool = new FilePool(script!, 1, { pluginUrls: [analyzers.href], config: {} }, 0);
      try {
        const plugin = (await import(analyzers.href)).default as Plugin;
        const ruleSet = buildRuleSet(plugin.analyzers, {});
        const snapshot = await createSnapshot(repo.root);
        const code = snapshot.files.filter((f) => f.language === 'typescript');
        const sources = await Promise.all(code.map((f) => snapshot.readFile(f.path)));
        // The worker analyses the first two files (and keeps them); the others are made here and sent.
        const fromWorker = await pool.run(
          code.slice(0, 2).map((file, slot) => ({ file, source: sources[slot], rules: true, slot })),
          0,
        );
        const here = code.slice(2).map((file, k) => analyzeFileSource(file, sources[k + 2], ruleSet));
        const summaries = [...fromWorker, ...here];
        pool.share(here.map((summary, k) => [k + 2, summary]));

        const rules = ruleSet.repositoryRules;
        const groups = groupsOf(rules).map((g) => g.map((i) => rules[i].qualifiedId));
        const remote: RuleOutcome[][] = [];
        // Fresh claims this thread never takes: the worker claims every group.
        const claim = new Int32Array(new SharedArrayBuffer(4 * groups.length));
        const order = groups.map((_, i) => i);
        await pool.runRules(
          { total: summaries.length, root: snapshot.root, files: snapshot.files, git: await snapshot.git(), groups, claim, order },
          (group, outcomes) => {
            remote[group] = outcomes;
          },
        );
        expect(remote.filter(Boolean)).toHaveLength(groups.length);

        const graph = await buildRepositoryGraph(snapshot, summaries);
        const local = await runRepositoryRules(
          rules,
          { snapshot, summaries, graph, signal: new AbortController().signal },
          { progress: () => undefined, checkpoint: () => undefined },
        );
        const publish = async (outcomes: RuleOutcome[]) => {
          const { findings, ...rest } = await publishOutcomes(
            rules,
            outcomes,
            (path) => snapshot.readFile(path),
            () => true,
          );
          return { findings: findings.map((f) => [f.ruleId, f.filePath, f.anchor.lineStart, f.anchor.lineEnd, f.title]), ...rest };
        };
        const expected = await publish(local);
        expect(await publish(remote.flat())).toEqual(expected);
        // Not vacuous: the copy, the unused file and the debt marker are among them.
        expect(expected.findings.map((f) => f[0])).toEqual(
          expect.arrayContaining(['duplication/duplicated-code', 'dead-code/unused-file', 'compliance/debt-marker']),
        );
      } finally {
        await pool.close();
        rmSync(repo.root, { recursive: true, force: true });
      }
    });
  },
  60_000,
);
