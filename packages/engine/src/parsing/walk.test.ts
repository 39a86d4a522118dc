import { describe, expect, it } from 'vitest';
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

  it('parses inputs larger than 32 KiB (the tree-sitter buffer trap)', () => {
    const big = 'export const x = 1;\n'.repeat(3000);
    expect(big.length).toBeGreaterThan(32_768);
    const tree = parseSource(big, 'typescript');
    expect(tree.rootNode.namedChildCount).toBe(3000);
    expect(tree.rootNode.hasError).toBe(false);
  });
});
