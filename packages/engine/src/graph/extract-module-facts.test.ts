import { describe, expect, it } from 'vitest';
import type { Language } from '../domain/types.js';
import { parseSource } from '../parsing/parser.js';
import { createModuleFactsVisitor, extractModuleFacts } from './extract-module-facts.js';
import type { ModuleFacts } from './types.js';

function facts(source: string, language: Language = 'typescript', withSource = true): ModuleFacts {
  return extractModuleFacts(parseSource(source, language), withSource ? { source, language } : { language });
}

describe('symbols', () => {
  it('lists top-level symbols with 1-based line ranges, methods with their class', () => {
    const src = [
      'import { x } from "./x";', // 1
      '@Injectable()', // 2
      'export class Service {', // 3
      '  @Log() run() {', // 4
      '    return 1;', // 5
      '  }', // 6
      '  handler = () => 2;', // 7
      '  count = 0;', // 8
      '  #secret() {}', // 9
      '}', // 10
      'interface Shape { area(): number }', // 11
      'type Id = string;', // 12
      'enum Color { Red }', // 13
      'const a = 1,', // 14
      '  b = 2;', // 15
      'function helper() {', // 16
      '  const inner = 1;', // 17
      '}', // 18
      'declare function ambient(): void;', // 19
      'namespace NS.Deep {}', // 20
      'export default () => 3;', // 21
    ].join('\n');
    expect(facts(src).symbols).toEqual([
      { name: 'Service', kind: 'class', lineStart: 2, lineEnd: 10, exported: true },
      { name: 'run', kind: 'method', lineStart: 4, lineEnd: 6, exported: true, container: 'Service' },
      { name: 'handler', kind: 'method', lineStart: 7, lineEnd: 7, exported: true, container: 'Service' },
      { name: '#secret', kind: 'method', lineStart: 9, lineEnd: 9, exported: true, container: 'Service' },
      { name: 'Shape', kind: 'interface', lineStart: 11, lineEnd: 11, exported: false },
      { name: 'Id', kind: 'type', lineStart: 12, lineEnd: 12, exported: false },
      { name: 'Color', kind: 'enum', lineStart: 13, lineEnd: 13, exported: false },
      { name: 'a', kind: 'variable', lineStart: 14, lineEnd: 14, exported: false },
      { name: 'b', kind: 'variable', lineStart: 15, lineEnd: 15, exported: false },
      { name: 'helper', kind: 'function', lineStart: 16, lineEnd: 18, exported: false },
      { name: 'ambient', kind: 'function', lineStart: 19, lineEnd: 19, exported: false },
      { name: 'NS', kind: 'namespace', lineStart: 20, lineEnd: 20, exported: false },
      { name: 'default', kind: 'function', lineStart: 21, lineEnd: 21, exported: true },
    ]);
  });

  it('reads JSX files with the tsx grammar', () => {
    const result = facts(`import React from 'react';\nexport function App() { return <div className="x">{1}</div>; }`, 'jsx');
    expect(result.imports).toEqual([{ specifier: 'react', kind: 'static', names: ['default'], line: 1 }]);
    expect(result.exports).toEqual([{ name: 'App', kind: 'function', line: 2, typeOnly: false }]);
  });
});

describe('createModuleFactsVisitor', () => {
  it('subscribes to calls and assignments only when the source may need them', () => {
    const esm = createModuleFactsVisitor({ source: `import a from './a';\nexport const b = a;`, language: 'javascript' }).visitor;
    expect(Object.keys(esm).sort()).toEqual(['call_expression', 'import', 'new_expression', 'program']);
    const plain = createModuleFactsVisitor({ source: `export const b = 1;`, language: 'javascript' }).visitor;
    expect(Object.keys(plain).sort()).toEqual(['import', 'program']);
    const cjs = createModuleFactsVisitor({ source: `const a = require('./a');\nmodule.exports = a;`, language: 'javascript' }).visitor;
    expect(Object.keys(cjs).sort()).toEqual(['assignment_expression', 'call_expression', 'import', 'program']);
    expect(Object.keys(createModuleFactsVisitor().visitor)).toHaveLength(5);
  });
});

describe('facts of a file with parse errors', () => {
  it('are marked partial: what the parser could not place is missing, so the lists are not complete', () => {
    const broken = facts(['export const kept = 1;', 'export function lost(a: number {', '  return a;', '}', 'export const after = 2;'].join('\n'));
    expect(broken.partial).toBe(true);
    expect(broken.exports.map((e) => e.name)).toContain('kept');
  });

  it('are complete when the file parses, once repaired (generic call signatures without `;`)', () => {
    const repaired = facts(['export interface Dual {', '  <A>(self: A): A', '  <A, B>(self: A, that: B): [A, B]', '}', 'export const after = 2'].join('\n'));
    expect(repaired.partial).toBeUndefined();
    expect(repaired.exports.map((e) => e.name)).toEqual(['Dual', 'after']);
  });
});
