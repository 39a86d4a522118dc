// Lexical name resolution inside one file, on demand: which declaration a name refers to at a
// given node. Rules call it only for their few candidates, so nothing is tracked during the walk.
import { isFunctionNode } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';

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

/** Adds every name `statement` declares to `out`; the first declaration of a name wins. */
function addDeclarations(statement: SyntaxNode, out: Map<string, Binding>): void {
  const add = (name: string | undefined, binding: Binding) => {
    if (name !== undefined && !out.has(name)) out.set(name, binding);
  };
  switch (statement.type) {
    case 'function_declaration':
    case 'generator_function_declaration':
      add(statement.childForFieldName('name')?.text, { kind: 'function', node: statement });
      break;
    case 'class_declaration':
    case 'abstract_class_declaration':
      add(statement.childForFieldName('name')?.text, { kind: 'class', node: statement });
      break;
    case 'lexical_declaration':
    case 'variable_declaration': {
      const kind = statement.type === 'variable_declaration' ? 'var' : statement.childForFieldName('kind')?.text === 'let' ? 'let' : 'const';
      for (const declarator of statement.namedChildren) {
        if (declarator.type !== 'variable_declarator') continue;
        const target = declarator.childForFieldName('name');
        if (target?.type === 'identifier') {
          const value = declarator.childForFieldName('value') ?? undefined;
          add(target.text, { kind, node: declarator, ...(value ? { value } : {}) });
        } else {
          for (const name of patternNames(target)) add(name, { kind, node: declarator });
        }
      }
      break;
    }
    case 'export_statement': {
      const declaration = statement.childForFieldName('declaration');
      if (declaration) addDeclarations(declaration, out);
      break;
    }
    case 'import_statement':
      addImports(statement, out, add);
      break;
    case 'enum_declaration':
    case 'internal_module':
      add(statement.childForFieldName('name')?.text, { kind: 'other', node: statement });
      break;
    default:
      break;
  }
}

function addImports(statement: SyntaxNode, out: Map<string, Binding>, add: (name: string | undefined, binding: Binding) => void): void {
  const clause = statement.namedChildren.find((child) => child.type === 'import_clause');
  for (const part of clause?.namedChildren ?? []) {
    if (part.type === 'identifier') add(part.text, { kind: 'import', node: part });
    else if (part.type === 'namespace_import') part.namedChildren.forEach((id) => add(id.text, { kind: 'import', node: part }));
    else if (part.type === 'named_imports') {
      for (const specifier of part.namedChildren) {
        const local = specifier.childForFieldName('alias') ?? specifier.childForFieldName('name');
        add(local?.text, { kind: 'import', node: specifier });
      }
    }
  }
}

/**
 * The declarations of a statement list by name, built once per list and tree: a rule resolving
 * many names in a file with thousands of top-level statements scans each list once, not per name.
 */
const listIndexes = new WeakMap<object, Map<number, Map<string, Binding>>>();

function declarationsOf(list: SyntaxNode): Map<string, Binding> {
  let byList = listIndexes.get(list.tree);
  if (!byList) listIndexes.set(list.tree, (byList = new Map()));
  let index = byList.get(list.id);
  if (!index) {
    index = new Map();
    for (const statement of list.namedChildren) addDeclarations(statement, index);
    byList.set(list.id, index);
  }
  return index;
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
    if (left.type === 'lexical_declaration' || left.type === 'variable_declaration') {
      const declared = new Map<string, Binding>();
      addDeclarations(left, declared);
      return declared.get(name);
    }
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
  return resolveIn(name, from, true);
}

/**
 * The declaration of `name` inside the functions and blocks around `from`, ignoring module-level
 * declarations: enough to tell whether an imported name is shadowed, without indexing the module.
 */
export function resolveLocalName(name: string, from: SyntaxNode): Binding | undefined {
  return resolveIn(name, from, false);
}

function resolveIn(name: string, from: SyntaxNode, includeModule: boolean): Binding | undefined {
  for (let scope = from.parent; scope; scope = scope.parent) {
    if (!includeModule && scope.type === 'program') return undefined;
    const own = ownBinding(scope, name);
    if (own) return own;
    if (!STATEMENT_LISTS.has(scope.type)) continue;
    const binding = declarationsOf(scope).get(name);
    if (binding) return binding;
  }
  return undefined;
}
