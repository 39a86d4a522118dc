// The flat copy of a tree must answer every question exactly as the tree-sitter binding does,
// including its quirks on error-recovered code and on aliased grammar rules: rules see flat nodes
// and their findings must not change. Checked node by node on snippets here, on real code in
// flat-tree-real-code.test.ts (the corpus project).
import type { SyntaxNode, Tree } from 'tree-sitter';
import { describe, expect, it } from 'vitest';
import { FlatTree } from './flat-tree.js';
import { differences, FIELDS } from './fixtures/flat-tree-differences.js';
import { parseSource } from './parser.js';
import { buildDispatcher, walkTree } from './walk.js';

describe('FlatTree', () => {
  it('answers like the binding on clean TypeScript, TSX and JavaScript', () => {
    const ts = [
      '@Component({ a: 1 })\nexport class A<T> extends B implements C {\n  #x = 1;\n  static get y(): number { return this.#x ?? -1; }\n  constructor(private readonly z: string) { super(); }\n}',
      'export default async function* f({ a, b = 2 }: Opts, ...rest: unknown[]): AsyncGenerator<number> { for await (const x of rest) yield x as number; }',
      'import type { T } from "./t";\nimport d, * as ns from "m";\nexport { d as e };\nexport * from "x";\nconst o = { a, [k]: v, "s": 1, m() {} };\nlabel: for (;;) { break label; }',
      'type Q = typeof a.b.c;\ntype R = typeof a.b().c;\ntype S = typeof X<A>;\ntype N = -1 | `t${string}`;\nlet i: import("m").a.b;\nlet j: typeof import("m");\nconst k = import("./k").then((m) => m.default);',
      'enum E { A = 1, B }\nnamespace N { export const x = 1; }\ndeclare module "m" { const y: number; }\nabstract class K { abstract m(): void; }\nfunction g(this: Window, a?: number): asserts a is number {}',
      // Anonymous tokens whose text is not their type name (`unique  symbol` keeps its spaces), and the ternary `?` from the scanner.
      'declare const u: unique   symbol;\ntype M<T> = { +readonly [K in keyof T]+?: T[K] };\ntype L<T> = { -readonly [K in keyof T]-?: T[K] };\nconst t = a ? b : c?.d ?? e;',
      // Token starts are found past the grammar's whitespace (Unicode spaces, a byte order mark) and
      // comments; strings, templates and regular expressions keep their own blanks.
      '\uFEFFconst\u00a0a\u2060=\u200B" x " + `  ${ b }  ` /* c */ ;\u3000 // d\nlet\u0085q = 1;\tlet r =\u2028/ x /g . test ( "" ) ;',
    ];
    for (const source of ts) expect(differences(source, 'typescript')).toEqual([]);
    expect(differences('export const App = () => <div className="a" onClick={() => go(1)}>{items.map((i) => <Item key={i} {...i} />)}</div>;', 'tsx')).toEqual(
      [],
    );
    expect(differences('const a = require("a");\nmodule.exports = function (x) { return x == null ? a : x?.y; };', 'javascript')).toEqual([]);
    expect(differences('', 'typescript')).toEqual([]);
  });

  it('answers like the binding on error-recovered code, including empty MISSING nodes', () => {
    const broken = [
      'function (',
      'const x = (a, b => { if (a) { return',
      'export interface Dual {\n  <A>(self: C<A>): R\n  <A>(that: B): (self: C<A>) => R\n}\nexport const f = g(',
      'type T = `a \\`b` c`;\nconst y = a?.;\nclass { m( }',
      'foo(zone!\n/** doc */\nexport const z = 1',
      // MISSING tokens right before the same token in the text, and characters no token takes.
      'f(a, (b => c);\nconst o = { x: 1 ;\nif (a { g() }\nlet q = @@ 1 ¤ 2;',
    ];
    for (const source of broken) expect(differences(source, 'typescript')).toEqual([]);
  });

  it('reports rows at \\n and columns in UTF-16 units, like the binding', () => {
    expect(differences('const a = "é😀";\r\nconst 𝑥 = 1; // ü 😀\r\n/* 😀\n */ let b = `${a}😀`;\n', 'typescript')).toEqual([]);
  });

  it('walks enter and exit handlers in the same order as on the binding tree', () => {
    const source = 'class A { m() { if (x) { f(() => 1); } } }\nfunction g() { return; }\nconst y = (';
    const events = (tree: Tree) => {
      const seen: string[] = [];
      const log = (tag: string) => (n: SyntaxNode) => seen.push(`${tag} ${n.type} ${n.startIndex}`);
      walkTree(
        tree,
        buildDispatcher([
          { '*': log('any'), 'function_declaration:exit': log('exit'), arrow_function: log('enter'), 'program:exit': log('end'), '*:exit': log('anyExit') },
        ]),
      );
      return seen;
    };
    const native = parseSource(source, 'typescript');
    const seen = events(FlatTree.from(native, source));
    expect(seen).toEqual(events(native));
    expect(seen.at(-1)).toBe('anyExit program 0');
  });

  it('answers structure questions on clean code from its arrays, without the binding', () => {
    const source = 'export function f(a: number, b = g(a.b)) { return a ? b.c : [1, -2]; }';
    const tree = FlatTree.from(parseSource(source, 'typescript'), source);
    // Counts calls into the binding (an observation: every call still goes through).
    let nativeCalls = 0;
    const nativeNode = tree.nativeNode.bind(tree);
    tree.nativeNode = ((...args: Parameters<typeof nativeNode>) => (nativeCalls++, nativeNode(...args))) as typeof tree.nativeNode;
    for (let i = 0; i < tree.count; i++) {
      const node = tree.node(i);
      void [node.parent, node.children, node.nextSibling, node.previousNamedSibling, node.hasError, node.startPosition, node.text];
      for (const field of ['name', 'parameters', 'body', 'object', 'property', 'function', 'arguments', 'left', 'value']) node.childForFieldName(field);
    }
    expect(nativeCalls).toBe(0);
    expect(tree.rootNode.descendantsOfType('member_expression').map((n) => n.text)).toEqual(['a.b', 'b.c']);
  });

  it('asks the binding for fields only around aliased rules: not on import statements or on what holds a literal type', () => {
    const source = 'import d, { a as b } from "m";\ntype N = -1;\ntype Q = typeof a.b;\nlet i: import("m").T;\nconst k = import("./k");';
    const tree = FlatTree.from(parseSource(source, 'typescript'), source);
    const asked: string[] = [];
    const nativeNode = tree.nativeNode.bind(tree);
    tree.nativeNode = ((index: number) => (asked.push(tree.typeName(index)), nativeNode(index))) as typeof tree.nativeNode;
    for (let i = 0; i < tree.count; i++) if (tree.firstChild(i) >= 0) for (const field of FIELDS) tree.node(i).childForFieldName(field);
    // Import statements (their `import` keyword) and what holds a literal type or type query
    // (`type_alias_declaration`) are answered from the arrays; `import("m")` chains are not.
    expect(new Set(asked)).toEqual(
      new Set(['literal_type', 'unary_expression', 'type_query', 'member_expression', 'type_annotation', 'call_expression', 'import', 'variable_declarator']),
    );
    expect(differences(source, 'typescript')).toEqual([]);
  });
});
