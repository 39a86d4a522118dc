import { describe, expect, it } from 'vitest';
import { analyzeWith, findingsOf, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { consistency } from '../index.js';

const RULE = 'consistency/import-style';
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
/** Twelve ES modules, each importing the next by name with a `.js` extension. */
const esmModules = Object.fromEntries(
  NAMES.map((n, i) => [`src/${n}.ts`, `import { value as next } from './${NAMES[(i + 1) % NAMES.length]}.js';\nexport const value = () => next;\n`]),
);

describe('consistency/import-style', () => {
  it('reports a CommonJS file, an extensionless and a default import among ESM, .js and named imports', async () => {
    const repo = new MiniRepo({
      'package.json': '{ "name": "esm", "type": "module" }\n',
      ...esmModules,
      'src/legacy.js': "const fs = require('node:fs');\nmodule.exports = { fs };\n",
      'src/odd.ts':
        "import alpha from './alpha';\nimport * as beta from './beta.js';\nimport data from './data.json';\nexport const x = [alpha, beta, data];\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings.map((f) => `${f.filePath}:${f.anchor.lineStart} ${f.title}`)).toEqual([
      'src/legacy.js:1 legacy.js is CommonJS; the repository uses ESM',
      "src/odd.ts:1 Relative import './alpha' in odd.ts has no extension; the repository uses a .js extension",
      "src/odd.ts:1 Default import of './alpha' in odd.ts; local modules are imported by name",
    ]);
    expect(findings[0].description).toBe(
      "src/legacy.js is a CommonJS module (require('node:fs') at line 1), while 92.9% (13 of 14) of the source files in this repository are ESM.",
    );
    expect(findings[1]).toMatchObject({ confidence: 90, severity: 'info' });
    expect(result.conventions.filter((c) => c.name !== 'file-naming' && !c.name.endsWith('-naming'))).toEqual(
      expect.arrayContaining([
        { name: 'module-system', consistency: 92.9, dominantValue: 'ESM', totalCount: 14, deviationCount: 1, values: { ESM: 13, CommonJS: 1 } },
        // './data.json' needs its extension whatever the style; namespace imports are neither default nor named.
        { name: 'import-extension', consistency: 92.9, dominantValue: '.js', totalCount: 14, deviationCount: 1, values: { '.js': 13, none: 1 } },
        { name: 'local-import-binding', consistency: 92.3, dominantValue: 'named', totalCount: 13, deviationCount: 1, values: { named: 12, default: 1 } },
      ]),
    );
  });

  it('leaves .cjs/.mjs files, createRequire, require() specifiers and loader queries out of the module-system and extension patterns', async () => {
    const repo = new MiniRepo({
      ...esmModules,
      'src/build.cjs': "const path = require('./paths');\nmodule.exports = path;\n",
      'src/load.ts':
        "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const pkg = require('../package.json');\n",
      'src/icons.ts': "import Logo from './logo.svg?react';\nimport worker from './worker?worker';\nexport { Logo, worker };\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'module-system')).toMatchObject({ totalCount: 14, consistency: 100 });
    // Loader queries (`?react`, `?worker`) are neither extension style nor a binding choice.
    expect(result.conventions.find((c) => c.name === 'import-extension')).toMatchObject({ totalCount: 12, consistency: 100 });
  });

  it("does not report what the file could not choose: Node's CommonJS .js, explicit extensions, a package's own extension style, a forced binding", async () => {
    const extensionless = Object.fromEntries(
      NAMES.map((n, i) => [
        `packages/app/src/${n}.ts`,
        `import { value as next } from './${NAMES[(i + 1) % NAMES.length]}';\nexport const value = () => next;\n`,
      ]),
    );
    const repo = new MiniRepo({
      'packages/app/package.json': '{ "name": "app" }\n',
      ...extensionless,
      // A package run by Node as CommonJS (no "type": "module"): its .js files are CommonJS by rule.
      'packages/app/index.js': "module.exports = require('./dist/app.js');\n",
      // A package built for Node's ESM resolution writes extensions, whatever the rest of the repository does.
      'packages/node/package.json': '{ "name": "node", "type": "module" }\n',
      'packages/node/src/a.ts': "import { b } from './b.js';\nimport { c } from './c.mjs';\nexport const a = [b, c];\n",
      'packages/node/src/b.ts': "import { c } from './c.mjs';\nexport const b = c;\n",
      'packages/node/src/c.mts': 'export const c = 1;\n',
      // Modules that export only a default: importing it by default is the only way.
      'packages/app/src/delay.ts': 'export default function delay() {}\n',
      'packages/app/src/use.ts': "import delay from './delay';\nimport { value } from './alpha';\nexport const u = [delay, value];\n",
      // ...and a module that offers both, imported by default: a deviation.
      'packages/app/src/both.ts': 'export const named = 1;\nexport default named;\n',
      'packages/app/src/pick.ts': "import both from './both';\nexport const p = both;\n",
      // Both bindings of a module that offers both, in one import: its design, neither style.
      'packages/app/src/mix.ts': "import both2, { named } from './both';\nexport const m = [both2, named];\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual(["packages/app/src/pick.ts:1 Default import of './both' in pick.ts; local modules are imported by name"]);
    expect(result.conventions.find((c) => c.name === 'import-extension')).toMatchObject({ dominantValue: 'none', values: { none: 16, '.js': 3 } });
  });

  it('reports an import without extension in a package that writes them', async () => {
    const repo = new MiniRepo({
      'package.json': '{ "name": "esm", "type": "module" }\n',
      ...esmModules,
      'src/loose.ts': "import { value } from './alpha';\nexport const l = value;\n",
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual([
      "src/loose.ts:1 Relative import './alpha' in loose.ts has no extension; the repository uses a .js extension",
    ]);
  });

  it('does not count a require() inside a function of an ES module (lazy loading) as mixing', async () => {
    const repo = new MiniRepo({
      'package.json': '{ "name": "esm", "type": "module" }\n',
      ...esmModules,
      'src/stream.ts':
        "import { value } from './alpha.js';\nexport function open() {\n  return typeof window === 'undefined' ? new (require('node:stream').Readable)() : value;\n}\n",
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual([]);
  });

  it('does not report a TypeScript file for its import syntax in a CommonJS repository, but still a JavaScript ES module there', async () => {
    const cjs = Object.fromEntries(
      NAMES.map((n, i) => [`lib/${n}.js`, `const next = require('./${NAMES[(i + 1) % NAMES.length]}');\nmodule.exports = { next };\n`]),
    );
    const repo = new MiniRepo({
      'package.json': '{ "name": "cjs" }\n',
      ...cjs,
      // TypeScript's `module` setting compiles this to CommonJS: import syntax is not a choice against the repository.
      'types/config.ts': "import type { Options } from './options';\nexport const config: Options = {};\n",
      'types/options.ts': 'export interface Options { debug?: boolean }\n',
      // An .mjs file is ESM by its extension; a .js ES module in a CommonJS package is a deviation.
      'lib/modern.js': "import { next } from './alpha.js';\nexport const modern = next;\n",
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual(['lib/modern.js:1 modern.js is ESM; the repository uses CommonJS']);
  });

  it('flags a file that mixes ESM and require() at its first require', async () => {
    const repo = new MiniRepo({
      ...esmModules,
      'src/mixed.ts': "import { value } from './alpha.js';\nconst old = require('./beta.js');\nexport const y = [value, old];\n",
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual(['src/mixed.ts:2 mixed.ts mixes ESM and CommonJS; the repository uses ESM']);
  });
});
