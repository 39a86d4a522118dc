import { describe, expect, it } from 'vitest';
import type { Language } from '../domain/types.js';
import { parseSource } from '../parsing/parser.js';
import { extractModuleFacts } from './extract-module-facts.js';
import type { ImportRecord, ModuleFacts } from './types.js';

function facts(source: string, language: Language = 'typescript', withSource = true): ModuleFacts {
  return extractModuleFacts(parseSource(source, language), withSource ? { source, language } : { language });
}

const imports = (source: string): ImportRecord[] => facts(source).imports;

describe('imports', () => {
  it('reads default, named with aliases, string names and namespace imports', () => {
    expect(imports(`import a, { b as c, d, "e f" as g } from 'x';\nimport * as ns from "y";\nuse(a, c, d, g, ns);`)).toEqual([
      { specifier: 'x', kind: 'static', names: ['default', 'b', 'd', 'e f'], line: 1 },
      { specifier: 'y', kind: 'static', names: ['*'], line: 2 },
    ]);
  });

  it('marks `import type` and default-plus-namespace imports', () => {
    expect(imports(`import type { T } from './t';\nimport type D from './d';\nimport def, * as all from './w';`)).toEqual([
      { specifier: './t', kind: 'type', names: ['T'], line: 1, typeOnly: true },
      { specifier: './d', kind: 'type', names: ['default'], line: 2, typeOnly: true },
      { specifier: './w', kind: 'static', names: ['default', '*'], line: 3, elidable: true },
    ]);
  });

  it('splits inline `type` specifiers from value specifiers of one statement', () => {
    expect(imports(`import { type A, b, type C } from './m';\nimport { type Only } from './o';`)).toEqual([
      { specifier: './m', kind: 'static', names: ['b'], line: 1, elidable: true },
      { specifier: './m', kind: 'type', names: ['A', 'C'], line: 1, typeOnly: true },
      { specifier: './o', kind: 'type', names: ['Only'], line: 2, typeOnly: true },
    ]);
  });

  it('reads side-effect imports, `import {}` and `import x = require()`', () => {
    expect(imports(`import './polyfill';\nimport {} from './empty';\nimport fs = require('fs');\nimport type T = require('./t');`)).toEqual([
      { specifier: './polyfill', kind: 'side-effect', names: [], line: 1 },
      { specifier: './empty', kind: 'side-effect', names: [], line: 2 },
      { specifier: 'fs', kind: 'require', names: ['*'], line: 3, elidable: true },
      { specifier: './t', kind: 'type', names: ['*'], line: 4, typeOnly: true },
    ]);
  });

  it('reads literal dynamic imports only, with the names a destructuring reads', () => {
    const src = [
      `const m = await import('./a');`,
      'import(`./b`).then(() => 1);',
      'import(`./c${x}`);',
      'import(name);',
      `const { run, default: main } = await import('./d');`,
    ].join('\n');
    expect(imports(src)).toEqual([
      { specifier: './a', kind: 'dynamic', names: ['*'], line: 1 },
      { specifier: './b', kind: 'dynamic', names: ['*'], line: 2 },
      { specifier: './d', kind: 'dynamic', names: ['run', 'default'], line: 5 },
    ]);
  });

  it('treats import() in type positions as type-only imports', () => {
    const src = `let a: import('./a').B;\ntype C = typeof import('./c');\nfunction f(): import('./r').R { return g(); }`;
    expect(imports(src)).toEqual([
      { specifier: './a', kind: 'type', names: ['B'], line: 1, typeOnly: true },
      { specifier: './c', kind: 'type', names: ['*'], line: 2, typeOnly: true },
      { specifier: './r', kind: 'type', names: ['R'], line: 3, typeOnly: true },
    ]);
  });

  it('reads require() of a literal through the global require only', () => {
    const src = [
      `const fs = require('fs');`,
      `const { join, sep: s } = require('path');`,
      `require('./side');`,
      'const x = require(`./tpl`).x;',
      `require(dynamicName);`,
      `obj.require('./not-global');`,
      `require.resolve('./not-a-load');`,
      `define(function (require) { require('./amd'); });`,
      `const r = (require) => require('./param');`,
      `require('./a', 'extra');`,
    ].join('\n');
    expect(facts(src, 'javascript').imports).toEqual([
      { specifier: 'fs', kind: 'require', names: ['*'], line: 1 },
      { specifier: 'path', kind: 'require', names: ['join', 'sep'], line: 2 },
      { specifier: './side', kind: 'require', names: [], line: 3 },
      { specifier: './tpl', kind: 'require', names: ['x'], line: 4 },
    ]);
  });

  it('ignores require() when the module declares its own require, but not a createRequire one', () => {
    expect(imports(`function require(x: string) { return x; }\nrequire('./mine');`)).toEqual([]);
    expect(imports(`const require = createRequire(import.meta.url);\nconst ts = require('tree-sitter');`)).toEqual([
      { specifier: 'tree-sitter', kind: 'require', names: ['*'], line: 2 },
    ]);
  });

  it('gives the same result with or without the source hint', () => {
    const src = `import a from './a';\nconst b = require('./b');\nmodule.exports = { a, b };\nexports.c = 1;`;
    expect(facts(src, 'javascript', false)).toEqual(facts(src, 'javascript', true));
    expect(facts(src, 'javascript').imports.map((i) => i.specifier)).toEqual(['./a', './b']);
  });

  it('leaves imports inside `declare module` blocks alone and reads past parse errors', () => {
    const src = `declare module 'ext' {\n  import { X } from 'inner';\n  export const y: X;\n}\nimport ok from './ok';\nconst = ;\nimport after from './after';`;
    const result = facts(src);
    expect(result.imports.map((i) => i.specifier)).toEqual(['./ok', './after']);
    expect(result.exports).toEqual([]);
  });
});

describe('import elision', () => {
  const elidable = (source: string, language: Language = 'typescript'): Array<[string, boolean]> =>
    facts(source, language).imports.map((i) => [i.specifier, i.elidable ?? false]);

  it('flags TS imports whose bindings appear only in types or not at all', () => {
    const src = [
      `import { Scheduler } from './Scheduler';`,
      `import { Action } from './Action';`,
      `import * as ns from './ns';`,
      `import { Unused } from './unused';`,
      `import { Q } from './query';`,
      `import { Prop } from './prop';`,
      `class A { constructor(s: Scheduler, ctor: typeof Action, n: ns.Type, q: keyof typeof Q.member) {} }`,
      `// Scheduler and Action are mentioned here; obj.Prop is a property, "Prop" a string.`,
      `const p = obj.Prop + "Prop";`,
    ].join('\n');
    expect(elidable(src)).toEqual([
      ['./Scheduler', true],
      ['./Action', true],
      ['./ns', true],
      ['./unused', true],
      ['./query', true],
      ['./prop', true],
    ]);
  });

  it('keeps imports with a value use anywhere: calls, new, extends, decorators, shorthand, JSX, exports', () => {
    const src = [
      `import { a } from './a';`,
      `import B from './b';`,
      `import * as c from './c';`,
      `import { D } from './d';`,
      `import { e, type T } from './e';`,
      `import { F } from './f';`,
      `import { G } from './g';`,
      `import React from 'react';`,
      `import { H } from './h';`,
      `import { spread } from './spread';`,
      `a();`,
      `const s = [...spread];`,
      `class X extends B {}`,
      `const y = c.value;`,
      `@D() class Z {}`,
      `const o = { e };`,
      `const el = <F.Item />;`,
      `export { G };`,
      `export type { H };`,
      `let t: T;`,
    ].join('\n');
    expect(elidable(src, 'tsx')).toEqual([
      ['./a', false],
      ['./b', false],
      ['./c', false],
      ['./d', false],
      ['./e', false],
      ['./e', false],
      ['./f', false],
      ['./g', false],
      ['react', false],
      ['./h', true],
      ['./spread', false],
    ]);
  });

  it('never flags imports of JavaScript files, side-effect imports or type imports', () => {
    expect(elidable(`import { unused } from './a';`, 'javascript')).toEqual([['./a', false]]);
    expect(elidable(`import './side';\nimport type { T } from './t';`)).toEqual([
      ['./side', false],
      ['./t', false],
    ]);
  });
});
