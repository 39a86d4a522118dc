// Lexical name resolution inside one file, on demand: which declaration a name refers to at a
// given node. Rules call it only for their few candidates, so nothing is tracked during the walk.
import type { SyntaxNode } from '@codehealth/engine';
import { isFunctionNode } from '../../shared/functions.js';

/** A binding found for a name: the node that declares it and how. */
export interface Binding {
  kind: 'function' | 'class' | 'const' | 'let' | 'var' | 'import' | 'parameter' | 'other';
  /** The declaring node: a function or class declaration, a variable declarator, an import specifier, … */
  node: SyntaxNode;
  /** For variables: the initializer, when the name is bound directly (not destructured). */
  value?: SyntaxNode;
}

/** The identifiers a binding pattern (`x`, `{ a, b: [c] }`, `...rest`, `d = 1`) declares. */
export function patternNames(pattern: SyntaxNode | null, out: string[] = []): string[] {
  if (!pattern) return out;
  switch (pattern.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      out.push(pattern.text);
      break;
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      for (const child of pattern.namedChildren) patternNames(child, out);
      break;
    case 'pair_pattern':
      patternNames(pattern.childForFieldName('value'), out);
      break;
    case 'assignment_pattern':
    case 'object_assignment_pattern':
      patternNames(pattern.childForFieldName('left'), out);
      break;
    default:
      break;
  }
  return out;
}

function parameterBinding(fn: SyntaxNode, name: string): Binding | undefined {
  const single = fn.childForFieldName('parameter');
  if (single) return single.text === name ? { kind: 'parameter', node: single } : undefined;
  const params = fn.childForFieldName('parameters');
  for (const param of params?.namedChildren ?? []) {
    const pattern = param.childForFieldName('pattern') ?? param;
    if (patternNames(pattern).includes(name)) return { kind: 'parameter', node: param };
  }
  return undefined;
}

function declarationBinding(statement: SyntaxNode, name: string): Binding | undefined {
  switch (statement.type) {
    case 'function_declaration':
    case 'generator_function_declaration':
      return statement.childForFieldName('name')?.text === name ? { kind: 'function', node: statement } : undefined;
    case 'class_declaration':
    case 'abstract_class_declaration':
      return statement.childForFieldName('name')?.text === name ? { kind: 'class', node: statement } : undefined;
    case 'lexical_declaration':
    case 'variable_declaration': {
      const kind = statement.type === 'variable_declaration' ? 'var' : statement.childForFieldName('kind')?.text === 'let' ? 'let' : 'const';
      for (const declarator of statement.namedChildren) {
        if (declarator.type !== 'variable_declarator') continue;
        const target = declarator.childForFieldName('name');
        if (target?.type === 'identifier' && target.text === name) {
          const value = declarator.childForFieldName('value') ?? undefined;
          return { kind, node: declarator, ...(value ? { value } : {}) };
        }
        if (target && target.type !== 'identifier' && patternNames(target).includes(name)) return { kind, node: declarator };
      }
      return undefined;
    }
    case 'export_statement': {
      const declaration = statement.childForFieldName('declaration');
      return declaration ? declarationBinding(declaration, name) : undefined;
    }
    case 'import_statement':
      return importBinding(statement, name);
    case 'enum_declaration':
    case 'internal_module':
      return statement.childForFieldName('name')?.text === name ? { kind: 'other', node: statement } : undefined;
    default:
      return undefined;
  }
}

function importBinding(statement: SyntaxNode, name: string): Binding | undefined {
  const clause = statement.namedChildren.find((child) => child.type === 'import_clause');
  for (const part of clause?.namedChildren ?? []) {
    if (part.type === 'identifier' && part.text === name) return { kind: 'import', node: part };
    if (part.type === 'namespace_import' && part.namedChildren.some((id) => id.text === name)) return { kind: 'import', node: part };
    if (part.type === 'named_imports') {
      for (const specifier of part.namedChildren) {
        const local = specifier.childForFieldName('alias') ?? specifier.childForFieldName('name');
        if (local?.text === name) return { kind: 'import', node: specifier };
      }
    }
  }
  return undefined;
}

const STATEMENT_LISTS: ReadonlySet<string> = new Set(['program', 'statement_block', 'switch_case', 'switch_default', 'class_static_block']);

/** Bindings a node introduces for the code inside it (loop variables, catch parameters, function parameters). */
function ownBinding(scope: SyntaxNode, name: string): Binding | undefined {
  if (isFunctionNode(scope)) {
    const param = parameterBinding(scope, name);
    if (param) return param;
    // A named function expression sees its own name.
    if (scope.type === 'function_expression' && scope.childForFieldName('name')?.text === name) return { kind: 'function', node: scope };
    return undefined;
  }
  if (scope.type === 'catch_clause') {
    return patternNames(scope.childForFieldName('parameter')).includes(name) ? { kind: 'other', node: scope } : undefined;
  }
  if (scope.type === 'for_in_statement' || scope.type === 'for_statement') {
    const left = scope.childForFieldName('left') ?? scope.childForFieldName('initializer');
    if (!left) return undefined;
    if (left.type === 'lexical_declaration' || left.type === 'variable_declaration') return declarationBinding(left, name);
    return patternNames(left).includes(name) ? { kind: 'other', node: scope } : undefined;
  }
  return undefined;
}

/**
 * The declaration `name` refers to at `from`, or undefined when the file does not declare it (a
 * global or an ambient name). Declarations anywhere in an enclosing statement list count (function
 * declarations are hoisted; `let`/`const` are in their temporal dead zone before, which is no
 * different for the question "what does this name mean here").
 */
export function resolveName(name: string, from: SyntaxNode): Binding | undefined {
  for (let scope = from.parent; scope; scope = scope.parent) {
    const own = ownBinding(scope, name);
    if (own) return own;
    if (!STATEMENT_LISTS.has(scope.type)) continue;
    for (const statement of scope.namedChildren) {
      const binding = declarationBinding(statement, name);
      if (binding) return binding;
    }
  }
  return undefined;
}
