// The rules worker's side of the repository-rules phase, in process: it needs every summary of
// the run, claims groups in the order it is given until none is left, builds its graph only for a
// rule that reads it, and sends reports without syntax nodes (their line range instead).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Analyzer, RepositoryRule } from '../contracts/analyzer.js';
import type { SyntaxNode } from 'tree-sitter';
import { buildRuleSet } from '../plugins/rule-set.js';
import type { RepoFile } from '../snapshot/types.js';
import { analyzeFileSource } from './analyze-file.js';
import type { RuleOutcome } from './repository-rules.js';
import { retained, runClaimedRules, type RulesRequest } from './rules-worker.js';

const docs = { whyItMatters: 'w', suggestedAction: 's' };

/** Reports the first export of every module, by its syntax node when `byNode`; `graphs` gets the graph it read. */
function analyzer(id: string, byNode: boolean, graphs: unknown[] = []): Analyzer {
  const rule: RepositoryRule = {
    kind: 'repository',
    meta: { id: 'first-export', description: 'd', category: 'maintainability', severity: 'low', docs },
    analyze(context) {
      for (const s of context.summaries) {
        const line = s.module.exports[0]?.line ?? 1;
        const node = { startPosition: { row: line - 1, column: 0 }, endPosition: { row: line, column: 3 } } as SyntaxNode;
        context.progress(`looked at ${s.path}`);
        context.report({ filePath: s.path, title: `${id} ${context.graph.modules.size}`, description: 'd', ...(byNode ? { node } : { lineStart: line }) });
      }
      context.metric('modules', context.graph.modules.size);
      graphs.push(context.graph);
    },
  };
  return { id, description: id, categories: ['maintainability'], languages: ['typescript'], rules: [rule] };
}

/** Counts the modules of the snapshot without reading the graph. */
function graphFree(id: string): Analyzer {
  const rule: RepositoryRule = {
    kind: 'repository',
    meta: { id: 'count', description: 'd', category: 'maintainability', severity: 'low', docs },
    analyze(context) {
      context.metric('files', context.summaries.length);
    },
  };
  return { id, description: id, categories: ['maintainability'], languages: ['typescript'], rules: [rule], readsGraph: false };
}

const git = {
  available: false,
  files: new Map(),
  totals: { linesAdded30d: 0, linesDeleted30d: 0, linesAdded90d: 0, linesDeleted90d: 0, commits30d: 0, commits90d: 0, authors30d: 0, authors90d: 0 },
};
let root: string | undefined;

function setUp(analyzers: Analyzer[] = [analyzer('one', true), analyzer('two', false)]) {
  root = mkdtempSync(join(tmpdir(), 'codehealth-rules-worker-'));
  const sources: Record<string, string> = { 'a.ts': "import { b } from './b.js';\nexport const a = b;\n", 'b.ts': '\nexport const b = 1;\n' };
  const files: RepoFile[] = Object.entries(sources).map(([path, text]) => {
    writeFileSync(join(root!, path), text);
    return { path, language: 'typescript', kind: 'source', sizeBytes: text.length };
  });
  const ruleSet = buildRuleSet(analyzers, {});
  const summaries = files.map((file, i) => analyzeFileSource(file, Object.values(sources)[i], ruleSet));
  const groups = ruleSet.repositoryRules.map((r) => [r.qualifiedId]);
  const request = (claim = new Int32Array(new SharedArrayBuffer(4 * groups.length)), order = groups.map((_, i) => i)): RulesRequest => ({
    total: 2,
    root: root!,
    files,
    git,
    groups,
    claim,
    order,
  });
  return { ruleSet, summaries, request };
}

afterEach(() => {
  retained.clear();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('runClaimedRules', () => {
  it('runs the groups it claims on the summaries it holds, sending line ranges instead of nodes', async () => {
    const { ruleSet, summaries, request } = setUp();
    summaries.forEach((s, slot) => retained.set(slot, s));
    const claim = new Int32Array(new SharedArrayBuffer(8));
    // The main thread already took the first group.
    Atomics.store(claim, 0, 1);
    const posted: Array<[number, RuleOutcome[]]> = [];
    await runClaimedRules(request(claim), ruleSet, (group, outcomes) => posted.push([group, outcomes]));
    expect(posted.map(([group]) => group)).toEqual([1]);
    expect(posted[0][1][0]).toEqual({
      reports: [
        { filePath: 'a.ts', title: 'two 2', description: 'd', lineStart: 2 },
        { filePath: 'b.ts', title: 'two 2', description: 'd', lineStart: 2 },
      ],
      metrics: [['modules', 2]],
      conventions: [],
      progress: ['looked at a.ts', 'looked at b.ts'],
    });
    expect([...claim]).toEqual([1, 1]);
    // What it held is released once the phase has its own array.
    expect(retained.size).toBe(0);

    summaries.forEach((s, slot) => retained.set(slot, s));
    const byNode: RuleOutcome[] = [];
    await runClaimedRules(request(), ruleSet, (group, outcomes) => group === 0 && byNode.push(...outcomes));
    expect(byNode[0].reports[0]).toEqual({ filePath: 'a.ts', title: 'one 2', description: 'd', lineStart: 2, lineEnd: 3 });
    expect('node' in byNode[0].reports[0]).toBe(false);
  });

  it('tries groups in the given order and builds its graph once, for the first rule that reads it', async () => {
    const graphs: unknown[] = [];
    const { ruleSet, summaries, request } = setUp([analyzer('one', false, graphs), graphFree('free'), analyzer('two', false, graphs)]);
    summaries.forEach((s, slot) => retained.set(slot, s));
    const posted: Array<[number, RuleOutcome[]]> = [];
    await runClaimedRules(request(undefined, [1, 2, 0]), ruleSet, (group, outcomes) => posted.push([group, outcomes]));
    expect(posted.map(([group]) => group)).toEqual([1, 2, 0]);
    expect(posted[0][1][0].metrics).toEqual([['files', 2]]);
    expect(graphs).toHaveLength(2);
    expect(graphs[0]).toBe(graphs[1]);
  });

  it('refuses to run without every summary of the run', async () => {
    const { ruleSet, summaries, request } = setUp();
    retained.set(0, summaries[0]);
    await expect(runClaimedRules(request(), ruleSet, () => undefined)).rejects.toThrow('lacks summary 1');
  });
});
