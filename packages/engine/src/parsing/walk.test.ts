import { describe, expect, it } from 'vitest';
import { FlatTree } from './flat-tree.js';
import { parseSource } from './parser.js';
import { buildDispatcher, walkTree } from './walk.js';

describe('walkTree', () => {
  it('visits enter and exit handlers in document order, once each', () => {
    const tree = parseSource('function a() { if (x) { b(); } }\nfunction c() {}', 'typescript');
    const events: string[] = [];
    walkTree(
      tree,
      buildDispatcher([
        {
          function_declaration: (n) => events.push(`enter ${n.childForFieldName('name')?.text}`),
          'function_declaration:exit': (n) => events.push(`exit ${n.childForFieldName('name')?.text}`),
          if_statement: () => events.push('if'),
          'program:exit': () => events.push('end'),
        },
      ]),
    );
    expect(events).toEqual(['enter a', 'if', 'exit a', 'enter c', 'exit c', 'end']);
  });

  it('walks a flat tree again from inside a handler, and walks a larger one after a small one', () => {
    const flat = (source: string) => FlatTree.from(parseSource(source, 'typescript'), source);
    const small = flat('function a() { if (x) { b(); } }\nfunction c() {}');
    const events: string[] = [];
    const inner = buildDispatcher([{ if_statement: () => events.push('inner if'), 'program:exit': () => events.push('inner end') }]);
    // A walk that has finished leaves its stack for the next one.
    walkTree(small, inner);
    events.length = 0;
    walkTree(
      small,
      buildDispatcher([
        {
          function_declaration: (n) => events.push(`enter ${n.childForFieldName('name')?.text}`),
          'function_declaration:exit': (n) => events.push(`exit ${n.childForFieldName('name')?.text}`),
          if_statement: () => {
            events.push('if');
            walkTree(small, inner);
          },
          'program:exit': () => events.push('end'),
        },
      ]),
    );
    expect(events).toEqual(['enter a', 'if', 'inner if', 'inner end', 'exit a', 'enter c', 'exit c', 'end']);
    const large = flat('function f() { g(); }\n'.repeat(2000));
    let exits = 0;
    walkTree(large, buildDispatcher([{ 'function_declaration:exit': () => exits++ }]));
    expect(exits).toBe(2000);
  });

  it('parses inputs larger than 32 KiB (the tree-sitter buffer trap)', () => {
    const big = 'export const x = 1;\n'.repeat(3000);
    expect(big.length).toBeGreaterThan(32_768);
    const tree = parseSource(big, 'typescript');
    expect(tree.rootNode.namedChildCount).toBe(3000);
    expect(tree.rootNode.hasError).toBe(false);
  });
});
