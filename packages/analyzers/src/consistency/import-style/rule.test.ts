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
      ...esmModules,
      'src/legacy.js': "const fs = require('node:fs');\nmodule.exports = { fs };\n",
      'src/odd.ts': "import alpha from './alpha';\nimport * as beta from './beta.js';\nimport data from './data.json';\nexport const x = [alpha, beta, data];\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings.map((f) => `${f.filePath}:${f.anchor.lineStart} ${f.title}`)).toEqual([
      "src/legacy.js:1 legacy.js is CommonJS; the repository uses ESM",
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
      'src/load.ts': "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const pkg = require('../package.json');\n",
      'src/icons.ts': "import Logo from './logo.svg?react';\nimport worker from './worker?worker';\nexport { Logo, worker };\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'module-system')).toMatchObject({ totalCount: 14, consistency: 100 });
    // Loader queries (`?react`, `?worker`) are neither extension style nor a binding choice.
    expect(result.conventions.find((c) => c.name === 'import-extension')).toMatchObject({ totalCount: 12, consistency: 100 });
  });

  it('flags a file that mixes ESM and require() at its first require', async () => {
    const repo = new MiniRepo({ ...esmModules, 'src/mixed.ts': "import { value } from './alpha.js';\nconst old = require('./beta.js');\nexport const y = [value, old];\n" });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual([
      'src/mixed.ts:2 mixed.ts mixes ESM and CommonJS; the repository uses ESM',
    ]);
  });
});
