// A run that follows another in the same thread reuses the per-file observations of unchanged
// summaries (the same objects, or shallow copies sharing their nested objects): it must publish
// exactly what a first run would, and observe changed summaries again.
import { describe, expect, it } from 'vitest';
import type { ConventionPattern, FileSummary, RepositoryReportDescriptor, RepositoryRuleContext } from '@codehealth/engine/kit';
import { consistency } from './index.js';
import { FileMemo } from './shared/file-memo.js';
import { AWAIT, ERROR_SUBCLASS, PLAIN_ERROR, THEN, type FlowFacts } from './shared/flow-collector.js';
import type { NameFacts } from './naming-convention/collector.js';

interface FileShape {
  fn: string;
  /** The relative import's specifier. */
  imports: string;
  thrown: [value: string, subject: string];
  async: string;
}

/** A summary as the engine would build it, with just what the consistency rules read. */
function summary(path: string, shape: FileShape): FileSummary {
  return {
    path,
    contentHash: path,
    language: 'typescript',
    kind: 'source',
    lines: { total: 10, code: 8, comment: 0, blank: 2 },
    parse: { errorNodes: 0, missingNodes: 0 },
    module: {
      imports: [{ specifier: shape.imports, kind: 'static', names: ['helper'], line: 1 }],
      exports: [{ name: shape.fn, kind: 'function', line: 2, typeOnly: false }],
      symbols: [{ name: shape.fn, kind: 'function', lineStart: 2, lineEnd: 6, exported: true }],
      commonJs: false,
    },
    functions: [{ name: shape.fn, lineStart: 2, lineEnd: 6, params: 0, loc: 5 }],
    findings: [],
    facts: {
      'consistency/names': { function: [[shape.fn, 2, shape.fn]] } satisfies NameFacts,
      'consistency/flow': { 'error-class': [[shape.thrown[0], 3, shape.thrown[1]]], 'async-style': [[shape.async, 4, '', 1]] } satisfies FlowFacts,
    },
  } as FileSummary;
}

const regular = (i: number, subclass = 'NotFoundError'): FileShape => ({
  fn: `loadTask${i}`,
  imports: './helper.js',
  thrown: [ERROR_SUBCLASS, subclass],
  async: AWAIT,
});

/**
 * 24 kebab-case modules, one of which breaks every convention, and a `legacy/` directory of five
 * camelCase files that follow their directory's own style (not reported).
 */
function repository(): FileSummary[] {
  const modules = Array.from({ length: 24 }, (_, i) =>
    summary(
      `src/task-${String(i).padStart(2, '0')}.ts`,
      i === 0 ? { fn: 'parse_task', imports: './helper', thrown: [PLAIN_ERROR, 'Error'], async: THEN } : regular(i),
    ),
  );
  const legacy = Array.from({ length: 5 }, (_, i) => summary(`src/legacy/oldTask${i}.ts`, regular(100 + i)));
  return [...modules, ...legacy];
}

interface RunResult {
  findings: RepositoryReportDescriptor[];
  conventions: ConventionPattern[];
  metrics: Record<string, number | null>;
}

/** Runs the five rules as the engine does: one summaries array per run, shared by its rules. */
async function run(summaries: readonly FileSummary[], options: Record<string, unknown> = {}): Promise<RunResult> {
  const result: RunResult = { findings: [], conventions: [], metrics: {} };
  for (const rule of consistency.rules) {
    if (rule.kind !== 'repository') continue;
    const context = {
      summaries,
      snapshot: { files: summaries.map((s) => ({ path: s.path })) },
      options: rule.meta.options?.parse(options[rule.meta.id]),
      signal: new AbortController().signal,
      progress() {},
      report: (descriptor: RepositoryReportDescriptor) => result.findings.push(descriptor),
      metric: (name: string, value: number | null) => (result.metrics[name] = value),
      conventions: (patterns: ConventionPattern[]) => result.conventions.push(...patterns),
    };
    await rule.analyze(context as unknown as RepositoryRuleContext<never>);
  }
  return result;
}

const titles = (result: RunResult) => result.findings.map((f) => f.title);

describe('consistency on a run that follows another', () => {
  it('publishes the same findings, conventions and metrics over the same summaries and over shallow copies', async () => {
    const summaries = repository();
    const first = await run(summaries);
    expect(titles(first)).toEqual([
      'Function parse_task in task-00.ts is snake_case, not camelCase',
      "Relative import './helper' in task-00.ts has no extension; the repository uses a .js extension",
      'Plain Error thrown in parse_task (task-00.ts); the repository throws Error subclasses',
      '.then() chain in parse_task (task-00.ts), an async function; the repository uses async/await',
    ]);
    expect(first.findings[2].description).toContain('(most often NotFoundError)');
    expect(await run([...summaries])).toEqual(first);
    expect(await run(summaries.map((s) => ({ ...s, cached: true })))).toEqual(first);
  });

  it('observes a changed summary again', async () => {
    const summaries = repository();
    await run(summaries);
    // task-00 reparsed with its function renamed: new facts and module objects, as the engine makes them.
    const changed = summaries.map((s, i) =>
      i === 0 ? summary(s.path, { fn: 'parseTask', imports: './helper', thrown: [PLAIN_ERROR, 'Error'], async: THEN }) : { ...s, cached: true },
    );
    const result = await run(changed);
    expect(titles(result)).not.toContain('Function parse_task in task-00.ts is snake_case, not camelCase');
    expect(result.conventions.find((c) => c.name === 'function-naming')).toMatchObject({ totalCount: 29, deviationCount: 0 });
    expect(result).toEqual(await run(changed.map((s) => structuredClone(s))));
  });

  it('annotates kept observations afresh: what they say of the repository is not kept with them', async () => {
    const summaries = repository();
    await run(summaries);
    // The other modules of src/ now throw ValidationError: the unchanged plain Error's suggestion follows them.
    const retyped = summaries.map((s, i) => (i > 0 && i < 24 ? summary(s.path, regular(i, 'ValidationError')) : s));
    const thrown = (await run(retyped)).findings.find((f) => f.title.startsWith('Plain Error'));
    expect(thrown?.description).toContain('(most often ValidationError, NotFoundError)');
    // One legacy file removed: its four neighbours no longer make a directory convention, so they are reported.
    const fewer = await run(summaries.filter((s) => s.path !== 'src/legacy/oldTask4.ts'));
    expect(titles(fewer).filter((t) => t.startsWith('File name'))).toEqual([0, 1, 2, 3].map((i) => `File name oldTask${i}.ts is camelCase, not kebab-case`));
  });

  it('observes names again when the ignore option changes', async () => {
    const summaries = repository();
    const naming = (result: RunResult) => titles(result).filter((t) => t.startsWith('Function'));
    expect(naming(await run(summaries))).toHaveLength(1);
    expect(naming(await run([...summaries], { 'naming-convention': { ignore: ['^parse_'] } }))).toEqual([]);
    expect(naming(await run([...summaries]))).toHaveLength(1);
  });
});

describe('FileMemo', () => {
  it('reuses a value for the same key and inputs, and computes it again when an input differs', () => {
    const memo = new FileMemo<object, number>();
    const key = {};
    let computed = 0;
    const compute = () => ++computed;
    expect(memo.get(key, ['a.ts', 1], compute)).toBe(1);
    expect(memo.get(key, ['a.ts', 1], compute)).toBe(1);
    expect(memo.get(key, ['b.ts', 1], compute)).toBe(2);
    expect(memo.get({}, ['b.ts', 1], compute)).toBe(3);
  });
});
