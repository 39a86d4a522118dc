import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWith, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { LICENSE_TEXTS } from '../shared/fixtures/license-texts.js';
import { compliance } from '../index.js';

const RULE = 'compliance/dependency-license';
const json = (value: unknown) => JSON.stringify(value, null, 2);
/** An installed package: its package.json (and extra files) under `node_modules/<name>` of `dir`. */
const installed = (name: string, fields: Record<string, unknown>, dir = '', extra: Record<string, string> = {}) => ({
  [`${dir}node_modules/${name}/package.json`]: json({ name, version: '1.2.3', ...fields }),
  ...Object.fromEntries(Object.entries(extra).map(([file, text]) => [`${dir}node_modules/${name}/${file}`, text])),
});

async function run(files: Record<string, string>) {
  const result = await analyzeWith(compliance, new MiniRepo({ 'src/index.ts': 'export const a = 1;\n', ...files }).root);
  const findings = result.findings.filter((f) => f.ruleId === RULE).map((f) => `${f.severity} ${f.filePath}:${f.anchor.lineStart} ${f.title}`);
  const metrics = Object.fromEntries(Object.entries(result.metrics.analyzerMetrics).filter(([k]) => k.startsWith('compliance.dependencies')));
  return { findings, metrics, result };
}

describe('compliance/dependency-license', () => {
  it('denies GPL and AGPL, asks to review LGPL, allows MIT, dual licences and licences read from a LICENSE file', async () => {
    const { findings, metrics, result } = await run({
      'package.json': json({
        name: 'app',
        license: 'MIT',
        dependencies: { 'left-pad': '^1.0.0', 'gpl-lib': '^2.0.0', 'dual-lib': '^1.0.0', '@scope/agpl-tool': '1.0.0', 'lgpl-lib': '*', 'text-only': '1' },
        devDependencies: { 'gpl-dev-tool': '1' },
      }),
      ...installed('left-pad', { license: 'MIT' }),
      ...installed('gpl-lib', { license: 'GPL-3.0-only' }),
      ...installed('dual-lib', { license: '(MIT OR GPL-2.0)' }),
      ...installed('@scope/agpl-tool', { license: 'AGPL-3.0-or-later' }),
      ...installed('lgpl-lib', { license: 'LGPL-3.0' }),
      ...installed('text-only', {}, '', { 'LICENSE.txt': LICENSE_TEXTS.ISC }),
      ...installed('gpl-dev-tool', { license: 'GPL-3.0' }),
    });
    expect(findings).toEqual([
      'high package.json:6 GPL-3.0-only dependency gpl-lib in package.json',
      'high package.json:8 AGPL-3.0-or-later dependency @scope/agpl-tool in package.json',
      'low package.json:9 Dependency lgpl-lib is LGPL-3.0, not on the allow list',
    ]);
    const gpl = result.findings.find((f) => f.symbol === 'gpl-lib')!;
    expect(gpl.description).toBe('gpl-lib@1.2.3 (dependencies of package.json, wanted ^2.0.0) is licensed GPL-3.0-only, which the deny list forbids (GPL-*).');
    expect(gpl.anchor.codeSnippet.trim()).toBe('"gpl-lib": "^2.0.0",');
    expect(metrics).toEqual({
      'compliance.dependenciesChecked': 6,
      'compliance.dependenciesDenied': 2,
      'compliance.dependenciesToReview': 1,
      'compliance.dependenciesUnknownLicense': 0,
    });
  });

  it('reports unknown licences at info: not installed, UNLICENSED, no licence at all; absent optional and peer dependencies are fine', async () => {
    const { findings } = await run({
      'package.json': json({
        name: 'app',
        dependencies: { present: '1', missing: '1', secret: '1', bare: '1' },
        optionalDependencies: { fsevents: '2' },
        peerDependencies: { react: '18' },
      }),
      ...installed('present', { license: 'MIT' }),
      ...installed('secret', { license: 'UNLICENSED' }),
      ...installed('bare', {}),
    });
    expect(findings).toEqual([
      'info package.json:5 Licence of dependency missing unknown (not installed)',
      'info package.json:6 Licence of dependency secret unknown',
      'info package.json:7 Licence of dependency bare unknown',
    ]);
  });

  it('reads an installed package only inside the repository: a package or licence linked out of it is not installed', async () => {
    const outside = new MiniRepo({
      'leak/package.json': json({ name: 'leak', version: '6.6.6', license: 'OUTSIDE-SECRET-l1c' }),
      'gpl.txt': `${LICENSE_TEXTS['GPL-3.0']}\nOUTSIDE-SECRET-l1c\n`,
    });
    const repo = new MiniRepo({
      'src/index.ts': 'export const a = 1;\n',
      'package.json': json({ name: 'app', dependencies: { leak: '1', 'text-only': '1', 'left-pad': '1' } }),
      // A package whose licence file is a link towards the host's files.
      ...installed('text-only', {}),
      // pnpm's layout: the package is a link to its copy in node_modules/.pnpm, inside the repository.
      ...installed('.pnpm/left-pad@1.2.3/node_modules/left-pad', { license: 'MIT' }),
    });
    symlinkSync(join(outside.root, 'leak'), join(repo.root, 'node_modules', 'leak'));
    symlinkSync(join(outside.root, 'gpl.txt'), join(repo.root, 'node_modules', 'text-only', 'LICENSE'));
    symlinkSync('.pnpm/left-pad@1.2.3/node_modules/left-pad', join(repo.root, 'node_modules', 'left-pad'));
    const result = await analyzeWith(compliance, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE).map((f) => `${f.severity} ${f.filePath}:${f.anchor.lineStart} ${f.title}`);
    expect(findings).toEqual([
      'info package.json:4 Licence of dependency leak unknown (not installed)',
      'info package.json:5 Licence of dependency text-only unknown',
    ]);
    expect(result.metrics.analyzerMetrics['compliance.dependenciesChecked']).toBe(2);
    expect(JSON.stringify(result)).not.toContain('OUTSIDE-SECRET');
  });

  it('without any node_modules checks nothing and reports nothing: the metric says how many dependencies went unchecked', async () => {
    const { findings, result } = await run({ 'package.json': json({ name: 'app', dependencies: { a: '1', b: '2' } }) });
    expect(findings).toEqual([]);
    expect(result.metrics.analyzerMetrics['compliance.dependenciesNotInstalled']).toBe(2);
    expect(result.metrics.analyzerMetrics['compliance.dependenciesChecked']).toBe(0);
  });

  it('checks workspace packages, resolving from their own node_modules up to the root, and skips the workspace’s own packages', async () => {
    const { findings, metrics } = await run({
      'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'], dependencies: { shared: '1' } }),
      'packages/api/package.json': json({ name: '@app/api', dependencies: { '@app/core': '*', local: 'file:../local', shared: '1', nested: '1' } }),
      'packages/core/package.json': json({ name: '@app/core', dependencies: { hoisted: '1' } }),
      ...installed('shared', { license: 'MIT' }),
      ...installed('hoisted', { license: 'SSPL-1.0' }),
      ...installed('nested', { license: 'GPL-2.0' }, 'packages/api/'),
      // The root's copy of `nested` is not the one packages/api resolves.
      ...installed('nested', { license: 'MIT' }),
    });
    expect(findings).toEqual([
      'high packages/api/package.json:7 GPL-2.0 dependency nested in packages/api/package.json',
      'high packages/core/package.json:4 SSPL-1.0 dependency hoisted in packages/core/package.json',
    ]);
    expect(metrics['compliance.dependenciesChecked']).toBe(4);
  });

  it('lets a GPL project use GPL code, and honours allow, deny, ignore, includeDev and reportUnknown', async () => {
    const base = {
      ...installed('gpl-lib', { license: 'GPL-3.0' }),
      ...installed('mpl-lib', { license: 'MPL-2.0' }),
      ...installed('dev-tool', { license: 'AGPL-3.0' }),
    };
    const deps = { dependencies: { 'gpl-lib': '1', 'mpl-lib': '1', gone: '1' }, devDependencies: { 'dev-tool': '1' } };
    expect((await run({ ...base, 'package.json': json({ name: 'app', license: 'GPL-3.0-or-later', ...deps }) })).findings).toEqual([
      'low package.json:6 Dependency mpl-lib is MPL-2.0, not on the allow list',
      'info package.json:7 Licence of dependency gone unknown (not installed)',
    ]);
    const config = {
      rules: { [RULE]: { options: { allow: ['MIT', 'MPL-*'], deny: ['GPL-*', 'AGPL-*'], ignore: ['gpl-lib'], includeDev: true, reportUnknown: false } } },
    };
    expect((await run({ ...base, 'package.json': json({ name: 'app', license: 'MIT', ...deps }), 'codehealth.config.json': json(config) })).findings).toEqual([
      'high package.json:10 AGPL-3.0 dependency dev-tool in package.json',
    ]);
  });
});
