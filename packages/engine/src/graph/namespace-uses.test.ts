import { describe, expect, it } from 'vitest';
import type { Language } from '../domain/types.js';
import { parseSource } from '../parsing/parser.js';
import { extractModuleFacts } from './extract-module-facts.js';

function importedNames(source: string, language: Language = 'typescript'): string[][] {
  return extractModuleFacts(parseSource(source, language), { source, language }).imports.map((r) => r.names);
}

describe('namespace imports', () => {
  it('use only the members the file reads while the namespace does not escape', () => {
    const src = [
      "import * as ns from './m';",
      'ns.a();',
      'const v: ns.Shape = ns.b?.c;',
      'function f(o: { ns: number }) { return o.ns; }',
      "const label = 'ns';",
    ].join('\n');
    expect(importedNames(src)).toEqual([['a', 'Shape', 'b']]);
  });

  it('reads JSX member tags and keeps a default import beside the namespace', () => {
    expect(importedNames("import React, * as ui from './ui';\nexport const A = () => <ui.Button />;\n", 'tsx')).toEqual([['default', 'Button']]);
  });

  it('use every export once the namespace escapes: passed on, spread, indexed, iterated, re-exported, typeof', () => {
    const escapes = [
      'use(ns);',
      'const all = { ...ns };',
      'const x = ns[key];',
      'for (const k in ns) {}',
      'Object.keys(ns);',
      'export { ns };',
      'type T = typeof ns;',
      'const o = { ns };',
    ];
    for (const line of escapes) expect([line, importedNames(`import * as ns from './m';\nns.a();\n${line}\n`)]).toEqual([line, [['*']]]);
  });

  it('leaves require() and import = require() whole', () => {
    expect(importedNames("import m = require('./m');\nm.a();\n")).toEqual([['*']]);
  });
});
