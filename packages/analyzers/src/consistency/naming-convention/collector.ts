// Collects declared names per kind (functions, methods, classes, types, constants) from source files.
import type { Collector, NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';

export const NAME_KINDS = ['function', 'method', 'class', 'type', 'constant'] as const;
export type NameKind = (typeof NAME_KINDS)[number];

/** `[name, line, qualified name]`: tuples keep the cached, cross-thread facts small. */
export type NameSample = [name: string, line: number, qualified: string];
export type NameFacts = Partial<Record<NameKind, NameSample[]>> & {
  /**
   * Values a type may be the companion of (`type OP = typeof OP`, `interface refine` next to
   * `const refine`): variables with literal values at any depth, and the names of lower-case types
   * that the file's text also declares as a value (found even where the value did not parse).
   */
  valueNames?: string[];
};

export const NAMES_COLLECTOR_ID = 'names';

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const LITERALS = new Set(['number', 'string', 'template_string', 'true', 'false']);
const WRAPPERS = new Set(['as_expression', 'satisfies_expression', 'parenthesized_expression']);
/** Value node types a literal constant can start with. */
const CONSTANT_VALUES = new Set([...LITERALS, ...WRAPPERS, 'unary_expression']);
// Names declared for something outside the code base (`declare global { interface Window }`) are not ours to choose.
const AMBIENT_CONTAINERS = new Set(['ambient_declaration', 'module', 'internal_module']);

/** A primitive written as a literal: `1`, `-1`, `'a'`, a template without substitutions, `true`, `1 as const`. */
function isPrimitiveLiteral(value: SyntaxNode): boolean {
  let node = value;
  while (WRAPPERS.has(node.type) && node.firstNamedChild) node = node.firstNamedChild;
  if (node.type === 'unary_expression') {
    const argument = node.childForFieldName('argument');
    return (node.firstChild?.type === '-' || node.firstChild?.type === '+') && argument?.type === 'number';
  }
  if (node.type === 'template_string') return !node.namedChildren.some((child) => child.type === 'template_substitution');
  return LITERALS.has(node.type);
}

function isAmbient(node: SyntaxNode): boolean {
  let up = node.parent;
  for (let depth = 0; up && depth < 4; depth++, up = up.parent) {
    if (AMBIENT_CONTAINERS.has(up.type)) return true;
    if (up.type === 'program') return false;
  }
  return false;
}

/** Offsets where the name of a `const`, `let`, `var`, `function` or `function*` declaration starts, in text order. */
function valueNameStarts(source: string): number[] {
  const starts: number[] = [];
  const keyword = /\b(?:const|let|var|function\*?)\s+/g;
  for (let match = keyword.exec(source); match; match = keyword.exec(source)) starts.push(match.index + match[0].length);
  return starts;
}

/** `\w` of a regular expression without the `u` flag. */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

/**
 * Whether the text matches `\b(?:const|let|var|function\*?)\s+<name>\b`, checked at the starts
 * found once per file (a regular expression per name was compiled and run over the whole text).
 */
function declaresValue(source: string, starts: readonly number[], name: string): boolean {
  // An escape in an identifier (`\u0061`) would mean something else in a pattern: keep the pattern.
  if (name.includes('\\')) return new RegExp(`\\b(?:const|let|var|function\\*?)\\s+${name.replace(/[$]/g, '\\$&')}\\b`).test(source);
  for (const at of starts) {
    if (!source.startsWith(name, at)) continue;
    const end = at + name.length;
    const after = end < source.length && isWordCode(source.charCodeAt(end));
    if (isWordCode(source.charCodeAt(end - 1)) !== after) return true;
  }
  return false;
}

function isTopLevel(declaration: SyntaxNode): boolean {
  const parent = declaration.parent;
  return parent?.type === 'program' || (parent?.type === 'export_statement' && parent.parent?.type === 'program');
}

function className(classBody: SyntaxNode | null): string | undefined {
  return classBody?.parent?.childForFieldName('name')?.text;
}

/** Member names that can be judged: identifiers and `#private` names, not strings or computed keys. */
function memberName(name: SyntaxNode | null): string | undefined {
  if (!name || (name.type !== 'property_identifier' && name.type !== 'private_property_identifier')) return undefined;
  return name.text;
}

/**
 * Type aliases named like the values they stand for, a style of their own in type-level code: a
 * generic alias in lower camel is a type-level function (tRPC's `inferRouterOutputs<T>`, zod's
 * `objectOutputType<Shape>`), and an alias of a literal in UPPER_SNAKE a type-level constant
 * (`type MAXIMUM_DEPTH = 20`). A lower-camel alias without type parameters is still a type.
 */
function isTypeLevelValue(node: SyntaxNode, name: string): boolean {
  if (node.type !== 'type_alias_declaration') return false;
  if (/^[a-z]/.test(name)) return node.childForFieldName('type_parameters') !== null;
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name) && node.childForFieldName('value')?.type === 'literal_type';
}

export const namesCollector: Collector<NameFacts> = {
  id: NAMES_COLLECTOR_ID,
  create({ file, source }) {
    const facts: NameFacts = {};
    let starts: number[] | undefined;
    const result = () => facts;
    // Only source files set conventions; tests are not even visited.
    if (file.kind !== 'source') return { visitor: {}, result };
    const add = (kind: NameKind, name: string, node: SyntaxNode, qualified = name) => {
      (facts[kind] ??= []).push([name, node.startPosition.row + 1, qualified]);
    };
    const declared = (kind: NameKind) => (node: SyntaxNode) => {
      const name = node.childForFieldName('name');
      if (!name || isAmbient(node) || isTypeLevelValue(node, name.text)) return;
      add(kind, name.text, node);
      // Rare enough (types are PascalCase almost everywhere) to afford a search of the text.
      if (kind === 'type' && !/^[A-Z]/.test(name.text) && declaresValue(source, (starts ??= valueNameStarts(source)), name.text))
        (facts.valueNames ??= []).push(name.text);
    };
    const onMember = (node: SyntaxNode, value: SyntaxNode | null) => {
      const name = memberName(node.childForFieldName('name'));
      // `override` names are chosen by the base class; `constructor` by the language.
      if (!name || name === 'constructor' || node.children.some((c) => c.type === 'override_modifier')) return;
      if (value && !FUNCTION_VALUES.has(value.type)) return;
      const owner = className(node.parent);
      if (owner === undefined) return;
      add('method', name, node, `${owner}.${name}`);
    };
    const visitor: NodeVisitor = {
      function_declaration: declared('function'),
      generator_function_declaration: declared('function'),
      class_declaration: declared('class'),
      abstract_class_declaration: declared('class'),
      interface_declaration: declared('type'),
      type_alias_declaration: declared('type'),
      enum_declaration: declared('type'),
      method_definition: (node) => {
        if (node.parent?.type === 'class_body') onMember(node, null);
      },
      public_field_definition: (node) => {
        const value = node.childForFieldName('value');
        if (value) onMember(node, value);
      },
      variable_declarator: (node) => {
        // Declarators are frequent: most values (calls, objects) are dismissed after one lookup.
        const value = node.childForFieldName('value');
        if (!value || !(FUNCTION_VALUES.has(value.type) || CONSTANT_VALUES.has(value.type))) return;
        const name = node.childForFieldName('name');
        if (name?.type !== 'identifier') return;
        if (FUNCTION_VALUES.has(value.type)) return add('function', name.text, node);
        if (!isPrimitiveLiteral(value)) return;
        (facts.valueNames ??= []).push(name.text);
        const declaration = node.parent;
        if (declaration?.type === 'lexical_declaration' && declaration.firstChild?.type === 'const' && isTopLevel(declaration))
          add('constant', name.text, node);
      },
    };
    return { visitor, result };
  },
};
