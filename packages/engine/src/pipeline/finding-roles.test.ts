// A run gives every finding its file's role, centrally (not in each rule), counts lines per role,
// and hands rules the role: file rules through `context.file`, repository rules through summaries.
// A file's role is part of its summary's cache key, since a file rule may read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../di/create-engine.js';
import { defineAnalyzer, defineRule } from '../plugins/define.js';
import { TempDir } from '../snapshot/fixtures/temp-repo.js';

/** Reports each file once, saying the role its rule context gave it. */
const whereAmI = defineRule({
  kind: 'file',
  meta: {
    id: 'where-am-i',
    description: 'one finding per file, naming its role',
    category: 'code_smell',
    severity: 'low',
    docs: { whyItMatters: 'Tests the pipeline.', suggestedAction: 'None.' },
  },
  create: (context) => ({
    program: (node) => context.report({ node, title: `role seen by the file rule: ${context.file.role ?? 'none'}`, description: 'd' }),
  }),
});

/** Reports on the repository's manifest, saying the roles of the summaries it saw. */
const rolesSeen = defineRule({
  kind: 'repository',
  meta: {
    id: 'roles-seen',
    description: 'one finding naming the summaries roles',
    category: 'code_smell',
    severity: 'info',
    docs: { whyItMatters: 'Tests the pipeline.', suggestedAction: 'None.' },
  },
  analyze(context) {
    const roles = context.summaries.map((s) => `${s.path}=${s.role}`).join(',');
    context.report({ filePath: 'package.json', lineStart: 1, title: 'summaries', description: roles });
  },
});

const analyzer = defineAnalyzer({
  id: 'roles',
  description: 'd',
  categories: ['code_smell'],
  languages: ['typescript', 'javascript'],
  rules: [whereAmI, rolesSeen],
});

describe('roles through a run', () => {
  let dir: TempDir;
  let engine: Engine;

  beforeAll(async () => {
    dir = new TempDir('codehealth-run-roles-');
    dir
      .write('package.json', '{ "name": "lib", "scripts": { "release": "node release.mjs" } }\n')
      .write('src/index.ts', 'export const a = 1;\nexport const b = 2;\n')
      .write('src/index.test.ts', 'import { a } from "./index";\n')
      .write('bench/index.ts', 'import { a } from "../src/index";\nconsole.log(a);\n')
      .write('examples/basic.ts', 'import { b } from "../src/index";\n')
      .write('release.mjs', 'console.log("release");\n');
    engine = await createEngine({ plugins: [{ name: 'test', analyzers: [analyzer] }], cacheDir: false, workers: 0 });
  });
  afterAll(() => dir.remove());

  it('sets each finding’s role to its file’s, file rules and repository rules alike', async () => {
    const result = await engine.analyze(dir.root);
    const byFile = Object.fromEntries(result.findings.filter((f) => f.ruleId === 'roles/where-am-i').map((f) => [f.filePath, [f.role, f.title]]));
    expect(byFile).toEqual({
      'src/index.ts': ['production', 'role seen by the file rule: production'],
      'bench/index.ts': ['benchmark', 'role seen by the file rule: benchmark'],
      'examples/basic.ts': ['example', 'role seen by the file rule: example'],
      'release.mjs': ['tooling', 'role seen by the file rule: tooling'],
    });
    const manifest = result.findings.find((f) => f.ruleId === 'roles/roles-seen')!;
    expect(manifest.role).toBe('production');
    expect(manifest.description.split(',').sort()).toEqual([
      'bench/index.ts=benchmark',
      'examples/basic.ts=example',
      'release.mjs=tooling',
      'src/index.test.ts=test',
      'src/index.ts=production',
    ]);
  });

  it('counts files and lines of code per role', async () => {
    const { metrics } = await engine.analyze(dir.root);
    expect(metrics.roles).toMatchObject({
      production: { files: 2, linesOfCode: 2 },
      test: { files: 1, linesOfCode: 1 },
      benchmark: { files: 1, linesOfCode: 2 },
      example: { files: 1, linesOfCode: 1 },
      tooling: { files: 1, linesOfCode: 1 },
      fixture: { files: 0, linesOfCode: 0 },
    });
  });

  it('summarises a text given without a role under the role its path gives, so that a run finds it cached', async () => {
    const fresh = await createEngine({ plugins: [{ name: 'test', analyzers: [analyzer] }], cacheDir: false, workers: 0 });
    const source = 'import { a } from "../src/index";\nconsole.log(a);\n';
    const [summary] = await fresh.summarizeSources(dir.root, [
      { file: { path: 'bench/index.ts', kind: 'source', language: 'typescript', sizeBytes: source.length }, source },
    ]);
    expect(summary!.role).toBe('benchmark');
    expect(summary!.findings.map((f) => f.title)).toEqual(['role seen by the file rule: benchmark']);
    const result = await fresh.analyze(dir.root);
    expect(result.summaries.find((s) => s.path === 'bench/index.ts')).toMatchObject({ role: 'benchmark', cached: true });
  });

  it('analyses a file again when only its role changed (the role is part of the cache key)', async () => {
    const first = await engine.analyze(dir.root);
    const seen = (r: typeof first) => r.findings.find((f) => f.filePath === 'src/index.ts' && f.ruleId === 'roles/where-am-i')!;
    expect(seen(first).title).toBe('role seen by the file rule: production');
    const overridden = await engine.analyze(dir.root, { config: { roles: { example: ['src/index.ts'] } } });
    expect(seen(overridden)).toMatchObject({ role: 'example', title: 'role seen by the file rule: example' });
    const summary = overridden.summaries.find((s) => s.path === 'src/index.ts')!;
    expect(summary.role).toBe('example');
    expect(summary.cached).toBeUndefined();
    // The other files kept their roles, and their summaries came from the cache.
    expect(overridden.summaries.find((s) => s.path === 'bench/index.ts')).toMatchObject({ role: 'benchmark', cached: true });
  });
});
