// Parse repairs, in the style of a grammar's corpus: valid TypeScript that tree-sitter-typescript
// 0.23.2 cannot parse, and the tree it gets once repaired; every node keeps the original's offsets,
// lines, columns and text. Neighbours must not change: clean files, line-start `<` that is not a
// signature, JSX, and errors that are real.
import type { Tree } from 'tree-sitter';
import { nativeNodes } from './fixtures/native-nodes.js';
import { describe, expect, it } from 'vitest';
import type { Language } from '../domain/types.js';
import { FlatTree } from './flat-tree.js';
import { treeErrorsOf } from './parse-errors.js';
import { repairParse } from './parse-repair.js';
import { parseSource, parseWithRepairs } from './parser.js';

interface Case {
  name: string;
  source: string;
  repairs: number;
  tree: string;
}

const CASES: Case[] = [
  {
    name: 'generic call signatures on consecutive lines of an interface (semi: false)',
    source: ['interface Dual {', '  <A>(self: A): A', '  <A, B>(self: A, that: B): [A, B]', '}'].join('\n'),
    repairs: 1,
    tree:
      '(program (interface_declaration name: (type_identifier) body: (interface_body ' +
      '(call_signature type_parameters: (type_parameters (type_parameter name: (type_identifier))) parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (type_identifier)))) return_type: (type_annotation (type_identifier))) ' +
      '(call_signature type_parameters: (type_parameters (type_parameter name: (type_identifier)) (type_parameter name: (type_identifier))) parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (type_identifier))) (required_parameter pattern: (identifier) type: (type_annotation (type_identifier)))) return_type: (type_annotation (tuple_type (type_identifier) (type_identifier)))))))',
  },
  {
    name: 'overloads of a dual API in an object type, with doc comments between them',
    source: [
      'export const map: {',
      '  /** data-last */',
      '  <A, B>(f: (a: A) => B): (self: Array<A>) => Array<B>',
      '  /** data-first */',
      '  <A, B>(self: Array<A>, f: (a: A) => B): Array<B>',
      '} = dual(2, (self, f) => self.map(f))',
    ].join('\n'),
    repairs: 1,
    tree:
      '(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) type: (type_annotation (object_type (comment) ' +
      '(call_signature type_parameters: (type_parameters (type_parameter name: (type_identifier)) (type_parameter name: (type_identifier))) parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (function_type parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (type_identifier)))) return_type: (type_identifier))))) return_type: (type_annotation (function_type parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (generic_type name: (type_identifier) type_arguments: (type_arguments (type_identifier)))))) return_type: (generic_type name: (type_identifier) type_arguments: (type_arguments (type_identifier)))))) (comment) ' +
      '(call_signature type_parameters: (type_parameters (type_parameter name: (type_identifier)) (type_parameter name: (type_identifier))) parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (generic_type name: (type_identifier) type_arguments: (type_arguments (type_identifier))))) (required_parameter pattern: (identifier) type: (type_annotation (function_type parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (type_identifier)))) return_type: (type_identifier))))) return_type: (type_annotation (generic_type name: (type_identifier) type_arguments: (type_arguments (type_identifier))))))) ' +
      'value: (call_expression function: (identifier) arguments: (arguments (number) (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier)) (required_parameter pattern: (identifier))) body: (call_expression function: (member_expression object: (identifier) property: (property_identifier)) arguments: (arguments (identifier))))))))))',
  },
  {
    name: 'a type parameter list opened on a line of its own, after a property',
    source: ['type Match = {', '  readonly name: string', '  <', '    const Cases extends object', '  >(cases: Cases): void', '}'].join('\n'),
    repairs: 1,
    tree:
      '(program (type_alias_declaration name: (type_identifier) value: (object_type (property_signature name: (property_identifier) type: (type_annotation (predefined_type))) ' +
      '(call_signature type_parameters: (type_parameters (type_parameter name: (type_identifier) constraint: (constraint (predefined_type)))) parameters: (formal_parameters (required_parameter pattern: (identifier) type: (type_annotation (type_identifier)))) return_type: (type_annotation (predefined_type))))))',
  },
  {
    name: 'members named `in` and `instanceof` after another member (semi: false)',
    source: ['interface Parameter {', '  name: string', '  in: "query" | "header"', '  instanceof?: boolean', '}'].join('\n'),
    repairs: 2,
    tree:
      '(program (interface_declaration name: (type_identifier) body: (interface_body (property_signature name: (property_identifier) type: (type_annotation (predefined_type))) ' +
      '(property_signature name: (property_identifier) type: (type_annotation (union_type (literal_type (string (string_fragment))) (literal_type (string (string_fragment)))))) ' +
      '(property_signature name: (property_identifier) type: (type_annotation (predefined_type))))))',
  },
  {
    name: '`export type * from` and `export type * as ns from` (TypeScript 5.0)',
    source: ["export type * from './types'", "export type * as shapes from './shapes'"].join('\n'),
    repairs: 2,
    tree: '(program (export_statement source: (string (string_fragment))) (export_statement (namespace_export (identifier)) source: (string (string_fragment))))',
  },
  {
    name: 'variance annotations on type parameters, a comment between them (TypeScript 4.7)',
    source: ['export interface Box<in out K, /** covariant */ out A = unknown> {', '  readonly key: K', '}'].join('\n'),
    repairs: 3,
    tree:
      '(program (export_statement declaration: (interface_declaration name: (type_identifier) type_parameters: (type_parameters (type_parameter name: (type_identifier)) (comment) ' +
      '(type_parameter name: (type_identifier) value: (default_type (predefined_type)))) body: (interface_body (property_signature name: (property_identifier) type: (type_annotation (type_identifier)))))))',
  },
  {
    name: 'variance annotations on type parameters one per line, after a line comment',
    source: [
      'export interface ApiModules<',
      '  // eslint-disable-next-line',
      '  in out BaseQuery extends object,',
      '  in out Definitions extends object,',
      '> {',
      '  readonly query: BaseQuery',
      '}',
    ].join('\n'),
    repairs: 4,
    tree:
      '(program (export_statement declaration: (interface_declaration name: (type_identifier) type_parameters: (type_parameters (comment) ' +
      '(type_parameter name: (type_identifier) constraint: (constraint (predefined_type))) (type_parameter name: (type_identifier) constraint: (constraint (predefined_type)))) ' +
      'body: (interface_body (property_signature name: (property_identifier) type: (type_annotation (type_identifier)))))))',
  },
  {
    name: 'escaped backticks in a template literal type',
    source: 'type Hint = `use \\`Self\\` in ${string}`',
    repairs: 2,
    tree: '(program (type_alias_declaration name: (type_identifier) value: (template_literal_type (string_fragment) (template_type (predefined_type)))))',
  },
];

/** Row and column (UTF-16 units) of an offset of the original text. */
function pointOf(source: string, offset: number): { row: number; column: number } {
  const before = source.slice(0, offset).split('\n');
  return { row: before.length - 1, column: before[before.length - 1].length };
}

/** Nodes whose offsets, lines, columns or text are not the original's (empty when all are). */
function displaced(tree: Tree, source: string): string[] {
  const out: string[] = [];
  for (const node of nativeNodes(tree)) {
    const where = [pointOf(source, node.startIndex), pointOf(source, node.endIndex), source.slice(node.startIndex, node.endIndex)];
    if (JSON.stringify([node.startPosition, node.endPosition, node.text]) !== JSON.stringify(where)) out.push(`${node.type} at ${node.startIndex}`);
  }
  return out;
}

describe('parse repairs of valid TypeScript the grammar cannot parse', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(parseSource(c.source, 'typescript', { repair: false }).rootNode.hasError).toBe(true);
      const { tree, repairs } = parseWithRepairs(c.source, 'typescript');
      expect(tree.rootNode.hasError).toBe(false);
      expect(repairs).toBe(c.repairs);
      expect(tree.rootNode.toString()).toBe(c.tree);
      expect(displaced(tree, c.source)).toEqual([]);
      expect(tree.rootNode.text).toBe(c.source);
    });
  }

  it('writes over characters one for one: same length, line breaks where they were, only at the repairs', () => {
    const source = CASES.map((c) => c.source).join('\n');
    const parse = (text: string) => parseSource(text, 'typescript', { repair: false });
    const { text, repairs, tree } = repairParse(source, parse(source), parse);
    expect(tree.rootNode.hasError).toBe(false);
    expect(text.length).toBe(source.length);
    expect(text.split('\n').map((line) => line.length)).toEqual(source.split('\n').map((line) => line.length));
    const changed = [...source].flatMap((ch, i) => (ch === text[i] ? [] : [i]));
    const covered = repairs.flatMap((r) => [...r.text].map((_, k) => r.at + k));
    expect(changed.every((i) => covered.includes(i))).toBe(true);
    expect(new Set(repairs.map((r) => r.kind))).toEqual(new Set(['member-separator', 'export-type-star', 'variance', 'template-escape']));
  });

  it('records the repaired tree with the original text: the flat copy answers like the binding', () => {
    const source = CASES[1].source;
    const native = parseSource(source, 'typescript');
    const flat = FlatTree.from(native, source);
    const nodes = nativeNodes(native);
    expect(flat.count).toBe(nodes.length);
    nodes.forEach((n, i) => {
      const f = flat.node(i);
      expect([f.type, f.startIndex, f.endIndex, f.startPosition, f.text, f.hasError]).toEqual([
        n.type,
        n.startIndex,
        n.endIndex,
        n.startPosition,
        n.text,
        n.hasError,
      ]);
    });
    expect(treeErrorsOf(flat)).toEqual({ errorNodes: 0, errorBytes: 0 });
  });
});

describe('what the repairs leave alone', () => {
  const parsed = (source: string, language: Language = 'typescript') => ({
    raw: parseSource(source, language, { repair: false }),
    ...parseWithRepairs(source, language),
  });

  it('parses a file without errors once and keeps its tree as it is', () => {
    const source = ['interface Dual {', '  <A>(self: A): A;', '  <A, B>(self: A, that: B): [A, B];', '}', 'export * from "./x"'].join('\n');
    const { raw, tree, repairs } = parsed(source);
    expect(raw.rootNode.hasError).toBe(false);
    expect(repairs).toBe(0);
    expect(tree.rootNode.toString()).toBe(raw.rootNode.toString());
  });

  it('touches no line-start `<` that is not a joined signature: comparisons, generic calls and arrows, JSX', () => {
    const signatures = ['interface Dual {', '  <A>(self: A): A', '  <A, B>(self: A, that: B): [A, B]', '}'];
    const code = ['const identity =', '  <T>(value: T): T => value', 'const less = width', '  < height', 'const made = make', '  <string>(value)'];
    const ts = parsed([...signatures, ...code].join('\n'));
    expect([ts.raw.rootNode.hasError, ts.tree.rootNode.hasError, ts.repairs]).toEqual([true, false, 1]);
    const types = nativeNodes(ts.tree).map((n) => n.type);
    expect(types).toEqual(expect.arrayContaining(['arrow_function', 'binary_expression', 'type_arguments']));
    expect(types.filter((t) => t === 'call_signature')).toHaveLength(2);

    const tsx = parsed([...signatures, 'export const view = (', '  <div>', '    <span />', '  </div>', ')'].join('\n'), 'tsx');
    expect([tsx.raw.rootNode.hasError, tsx.tree.rootNode.hasError, tsx.repairs]).toEqual([true, false, 1]);
    expect(nativeNodes(tsx.tree).map((n) => n.type)).toEqual(expect.arrayContaining(['jsx_element', 'jsx_self_closing_element']));
  });

  it('leaves JavaScript alone (the constructs are TypeScript-only)', () => {
    const source = 'export type * from "./x"\nconst a = b\n  <c>(d)';
    const { raw, tree, repairs } = parsed(source, 'javascript');
    expect(raw.rootNode.hasError).toBe(true);
    expect(repairs).toBe(0);
    expect(tree.rootNode.toString()).toBe(raw.rootNode.toString());
  });

  it('still reports a real error, at its line, after repairing what it could', () => {
    const source = ['interface Dual {', '  <A>(self: A): A', '  <A, B>(self: A, that: B): [A, B]', '}', 'const broken = ;'].join('\n');
    const { tree, repairs } = parsed(source);
    expect(repairs).toBe(1);
    const errors = treeErrorsOf(FlatTree.from(tree, source));
    expect(errors.errorNodes).toBeGreaterThan(0);
    expect(errors.firstErrorLine).toBe(5);
    expect(nativeNodes(tree).filter((n) => n.type === 'call_signature')).toHaveLength(2);
  });

  it('keeps the first tree when nothing is to be repaired, and counts MISSING nodes as errors', () => {
    const source = 'function f(a: number {\n  return a\n}\ninterface I { a: string';
    const { raw, tree, repairs } = parsed(source);
    expect(repairs).toBe(0);
    expect(tree.rootNode.toString()).toBe(raw.rootNode.toString());
    const errors = treeErrorsOf(FlatTree.from(tree, source));
    expect(errors.firstErrorLine).toBe(1);
    expect(errors.errorNodes).toBe(nativeNodes(tree).filter((n) => n.type === 'ERROR' || n.isMissing).length);
    expect(nativeNodes(tree).some((n) => n.isMissing)).toBe(true);
  });
});
