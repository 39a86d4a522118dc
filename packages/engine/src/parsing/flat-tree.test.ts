// The flat copy of a tree must answer every question exactly as the tree-sitter binding does,
// including its quirks on error-recovered code and on aliased grammar rules: rules see flat nodes
// and their findings must not change. Checked node by node on snippets and on real code.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { SyntaxNode, Tree } from 'tree-sitter';
import { nativeNodes } from './fixtures/native-nodes.js';
import { describe, expect, it } from 'vitest';
import type { Language } from '../domain/types.js';
import { FlatTree } from './flat-tree.js';
import type { FlatNode } from './flat-node.js';
import { parseSource } from './parser.js';
import { buildDispatcher, walkTree } from './walk.js';
import { obtainEffect, obtainRxjs } from '../../../../test/helpers/corpora.js';

const require = createRequire(import.meta.url);
const grammars: Record<string, { nodeTypeInfo: Array<{ fields?: Record<string, unknown> }> }> = require('tree-sitter-typescript');
const FIELDS = [...new Set([...grammars.typescript.nodeTypeInfo, ...grammars.tsx.nodeTypeInfo].flatMap((info) => Object.keys(info.fields ?? {})))];

/** Differences between the binding's answers and the flat tree's, as readable lines (empty when equal). */
function differences(source: string, language: Language, repair = true): string[] {
  const native = parseSource(source, language, { repair });
  const flat = FlatTree.from(native, source);
  const nodes = nativeNodes(native);
  const out: string[] = [];
  if (nodes.length !== flat.count) return [`${nodes.length} nodes, flat ${flat.count}`];
  const indexById = new Map(nodes.map((n, i) => [n.id, i]));
  const at = (n: SyntaxNode | null) => (n ? indexById.get(n.id) : null);
  const flatAt = (n: SyntaxNode | null) => (n ? (n as FlatNode).index : null);
  const list = (ns: SyntaxNode[]) => ns.map(at).join(',');
  const flatList = (ns: SyntaxNode[]) => ns.map(flatAt).join(',');
  const root = flat.rootNode;
  nodes.forEach((n, i) => {
    const f = flat.node(i);
    const same = (what: string, a: unknown, b: unknown) => {
      if (JSON.stringify(a) !== JSON.stringify(b) && out.length < 20) out.push(`node ${i} (${n.type}) ${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    };
    same('type', [n.type, n.typeId, n.isNamed, n.isMissing, n.isError, n.hasError], [f.type, f.typeId, f.isNamed, f.isMissing, f.isError, f.hasError]);
    same('range', [n.startIndex, n.endIndex, n.startPosition, n.endPosition, n.text], [f.startIndex, f.endIndex, f.startPosition, f.endPosition, f.text]);
    same('parent', at(n.parent), flatAt(f.parent));
    same(
      'children',
      [list(n.children), list(n.namedChildren), n.childCount, n.namedChildCount],
      [flatList(f.children), flatList(f.namedChildren), f.childCount, f.namedChildCount],
    );
    same(
      'ends',
      [n.firstChild, n.lastChild, n.firstNamedChild, n.lastNamedChild].map(at),
      [f.firstChild, f.lastChild, f.firstNamedChild, f.lastNamedChild].map(flatAt),
    );
    same(
      'siblings',
      [n.nextSibling, n.previousSibling, n.nextNamedSibling, n.previousNamedSibling].map(at),
      [f.nextSibling, f.previousSibling, f.nextNamedSibling, f.previousNamedSibling].map(flatAt),
    );
    same('child(1)', [at(n.child(1)), at(n.namedChild(1)), n.descendantCount], [flatAt(f.child(1)), flatAt(f.namedChild(1)), f.descendantCount]);
    if (n.childCount > 0) {
      for (const field of FIELDS) {
        same(
          `field ${field}`,
          [at(n.childForFieldName(field)), list(n.childrenForFieldName(field))],
          [flatAt(f.childForFieldName(field)), flatList(f.childrenForFieldName(field))],
        );
      }
    }
    const middle = (n.startIndex + n.endIndex) >> 1;
    for (const [s, e] of [
      [n.startIndex, n.endIndex],
      [n.startIndex, n.startIndex],
      [middle, middle],
      [middle, n.endIndex],
    ]) {
      same(
        `descendantForIndex(${s}, ${e})`,
        [at(native.rootNode.descendantForIndex(s, e)), at(native.rootNode.namedDescendantForIndex(s, e)), at(n.descendantForIndex(s, e))],
        [flatAt(root.descendantForIndex(s, e)), flatAt(root.namedDescendantForIndex(s, e)), flatAt(f.descendantForIndex(s, e))],
      );
    }
  });
  for (const types of [['call_expression', 'assignment_expression'], ['ERROR'], ['(']]) {
    if (list(native.rootNode.descendantsOfType(types)) !== flatList(root.descendantsOfType(types))) out.push(`descendantsOfType ${types}`);
  }
  const a = native.walk();
  const b = flat.walk();
  for (let step = 0; out.length === 0; step++) {
    if (a.nodeType !== b.nodeType || a.currentFieldName !== b.currentFieldName || a.currentDepth !== b.currentDepth || a.nodeText !== b.nodeText) {
      out.push(`cursor step ${step}: ${a.nodeType}/${a.currentFieldName} vs ${b.nodeType}/${b.currentFieldName}`);
    }
    const down = a.gotoFirstChild();
    if (down !== b.gotoFirstChild()) out.push(`cursor step ${step}: gotoFirstChild`);
    if (down) continue;
    let next = a.gotoNextSibling();
    if (next !== b.gotoNextSibling()) out.push(`cursor step ${step}: gotoNextSibling`);
    while (!next && a.gotoParent()) {
      b.gotoParent();
      next = a.gotoNextSibling();
      if (next !== b.gotoNextSibling()) out.push(`cursor step ${step}: gotoNextSibling`);
    }
    if (!next) break;
  }
  return out;
}

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

  it('answers like the binding on real code (effect, with many parse errors unrepaired, and rxjs)', (context) => {
    const effect = obtainEffect();
    const rxjs = obtainRxjs();
    if (effect.error !== undefined || rxjs.error !== undefined) return context.skip(`corpora unavailable: ${effect.error ?? rxjs.error}`);
    const sample = (dir: string, every: number) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
        .sort()
        .filter((_, i) => i % every === 0)
        .map((p) => join(dir, p));
    const files = [...sample(join(effect.root, 'src'), 25), ...sample(join(rxjs.root, 'src'), 25)];
    expect(files.length).toBeGreaterThan(20);
    let withErrors = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      // As the engine reads it (repaired trees record the original text) and as the grammar left it.
      expect(differences(source, 'typescript'), file).toEqual([]);
      if (!parseSource(source, 'typescript', { repair: false }).rootNode.hasError) continue;
      withErrors++;
      expect(differences(source, 'typescript', false), file).toEqual([]);
    }
    expect(withErrors).toBeGreaterThan(3);
  }, 120_000);

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
