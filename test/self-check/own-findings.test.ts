// Self-check (npm run self-check): what our own rules find in our own code stays within bounds.
// Moved from the analyzers' real-code tests ("... on this repository"), which keep their hand-checked
// results on rxjs, effect and knex; each used to analyse this repository again, now one analysis serves all.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSnapshot, type AssessmentResult, type Finding, type RepositoryRuleContext } from '@codehealth/engine';
import { deadCodeModel } from '../../packages/analyzers/src/dead-code/shared/dead-code-model.js';
import { ownAnalysis, repositoryRoot } from './own-code.js';

let result: AssessmentResult;
beforeAll(async () => {
  result = await ownAnalysis();
});

const of = (prefix: string): Finding[] => result.findings.filter((f) => f.ruleId.startsWith(prefix));
const line = (f: Finding) => `${f.ruleId} ${f.severity}/${f.confidence} ${f.filePath}:${f.anchor.lineStart} ${f.title}`;
/** Under a package's sources (packages/<name>/src/). */
const inPackageSources = (f: Finding) => /^packages\/[^/]+\/src\//.test(f.filePath);

describe('our own code, by our own rules', () => {
  it('runtime: few issues, none in the runtime analyzer itself, all anchored', () => {
    const findings = of('runtime/');
    console.info(findings.map(line).join('\n'));
    // A density: the first bound (15 findings in ~13k lines) was ~1.2 per 1,000 lines, which still catches a flood of
    // false positives (the first draft of the rules had ~5 per 1,000 here). Mostly `!` on Map lookups and deliberate empty catches.
    expect((findings.length * 1000) / result.metrics.totalLinesOfCode).toBeLessThanOrEqual(1.2);
    expect(findings.filter((f) => f.filePath.startsWith('packages/analyzers/src/runtime/'))).toEqual([]);
    expect(findings.every((f) => f.anchor.validated)).toBe(true);
    expect(result.metrics.analyzerMetrics['runtime.asyncFunctions']).toBeGreaterThan(20);
  });

  it('consistency: the house style of STYLE.md, and few deviations', () => {
    const dominant = Object.fromEntries(result.conventions.map((c) => [c.name, c.dominantValue]));
    expect(dominant).toMatchObject({
      'function-naming': 'camelCase',
      'class-naming': 'PascalCase',
      'type-naming': 'PascalCase',
      'constant-naming': 'UPPER_SNAKE',
      'file-naming': 'kebab-case',
      'module-system': 'ESM',
      'import-extension': '.js',
      'local-import-binding': 'named',
      'error-class': 'Error subclass',
      'async-style': 'async/await',
    });
    const findings = of('consistency/');
    console.info(findings.map(line).join('\n'));
    // Info notes (error-handling-style is info-only: docs/precision.md) do not count toward the bound.
    expect(findings.filter((f) => f.severity !== 'info').length).toBeLessThanOrEqual(10);
    expect(findings.every((f) => f.anchor.validated && f.title.length > 0)).toBe(true);
  });

  it('compliance: the Apache-2.0 LICENSE, permissively licensed dependencies, few debt markers', () => {
    expect(of('compliance/license-file').map((f) => f.title)).toEqual([]);
    // Every runtime dependency of every workspace (tree-sitter, zod, tsyringe, ...) is MIT, ISC or Apache-2.0.
    expect(of('compliance/dependency-license')).toEqual([]);
    expect(result.metrics.analyzerMetrics['compliance.dependenciesChecked']).toBeGreaterThanOrEqual(10);
    expect(of('compliance/debt-marker').length).toBeLessThanOrEqual(10);
  });

  it('security: nothing in the packages’ sources', () => {
    // Other analyzer families plant problems in their test snippets; those are test files, where only live-format keys count.
    expect(of('security/').filter(inPackageSources).map(line)).toEqual([]);
  });

  it('code smells: no god module in the packages, no large class but the tree-sitter adapters', () => {
    expect(
      of('code-smell/god-module')
        .filter((f) => f.filePath.startsWith('packages/'))
        .map(line),
    ).toEqual([]);
    const large = of('code-smell/large-class')
      .filter((f) => f.filePath.startsWith('packages/'))
      .map((f) => `${f.filePath}: ${f.title}`);
    // The flat tree's views mirror tree-sitter's SyntaxNode and TreeCursor interfaces member for member:
    // the size the rule's documentation names as imposed from outside.
    const adapters = large.filter((f) =>
      /^packages\/engine\/src\/parsing\/flat-(node\.ts: Class FlatNode|cursor\.ts: Class FlatCursor) has \d+ methods/.test(f),
    );
    expect(adapters).toHaveLength(2);
    expect(large.filter((f) => !adapters.includes(f))).toEqual([]);
  });

  it('testing: every committed test asserts, the engine and the CLI are loaded by tests, nothing is mocked', () => {
    const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: repositoryRoot, encoding: 'utf8' }).split('\n'));
    const committed = of('testing/tests-without-assertions').filter((f) => tracked.has(f.filePath));
    expect(committed.map((f) => `${f.filePath}:${f.anchor.lineStart} ${f.title}`)).toEqual([]);
    expect(result.metrics.analyzerMetrics['testing.testCases']).toBeGreaterThan(290);
    expect(result.metrics.assertionDensity).toBeGreaterThan(2);
    expect(result.metrics.assertionDensity).toBeLessThan(5);
    expect(
      of('testing/untested-module')
        .filter((f) => /^packages\/(engine|cli)\//.test(f.filePath))
        .map((f) => f.filePath),
    ).toEqual([]);
    expect(result.metrics.structuralCoveragePct).toBeGreaterThan(85);
    // The suites run real parsers, git repositories and servers; nothing is mocked.
    expect(result.metrics.mockUsagePct).toBe(0);
  });

  it('dead code: entry points of the monorepo are followed; no unused file in the applications, no unused private member', async () => {
    const snapshot = await createSnapshot(repositoryRoot);
    const context = { snapshot, summaries: result.summaries, graph: result.graph } as unknown as RepositoryRuleContext<unknown>;
    const model = await deadCodeModel(context, { entries: [] });
    expect(model.entries.get('packages/engine/src/index.ts')).toBe('package.json "main" of @codehealth/engine');
    expect(model.entries.get('packages/engine/src/testing/index.ts')).toBe('package.json "exports" "./testing" of @codehealth/engine');
    expect(model.entries.get('packages/cli/bin/codehealth.js')).toBe('package.json "bin" "codehealth" of @codehealth/cli');
    // bin/codehealth.js imports ../dist/main.js, which exists only as src/main.ts.
    expect(model.importersOf('packages/cli/src/main.ts')).toContain('packages/cli/bin/codehealth.js');
    // The worker pool starts `new URL('./file-worker.js', import.meta.url)`.
    expect(model.importersOf('packages/engine/src/pipeline/file-worker.ts')).toContain('packages/engine/src/pipeline/worker-pool.ts');
    expect(
      of('dead-code/unused-file')
        .filter((f) => /^packages\/(engine|cli|http|worker)\//.test(f.filePath))
        .map((f) => f.filePath),
    ).toEqual([]);
    // The exports the CLI re-exports through its entry are used; an export nobody imports is found.
    const unusedExports = of('dead-code/unused-export');
    expect(unusedExports.filter((f) => f.filePath.endsWith('/index.ts') && model.entries.has(f.filePath))).toEqual([]);
    expect(unusedExports.length).toBeGreaterThan(20);
    expect(of('dead-code/unused-private-member')).toEqual([]);
  });
});
