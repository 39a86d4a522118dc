// Lexical lookups done only when a rule has a candidate: the enclosing function, a local binding
// and the values a local variable can hold. Never a full scope analysis: enough to tell a literal
// command from one built out of a parameter, in the function where both are visible.
import { isFunctionNode } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';

// The enclosing function and the finding's symbol come from the kit (one algorithm for issue identity).
export { enclosingFunction, enclosingSymbol } from '@codehealth/engine/kit';

export type BindingKind = 'const' | 'let' | 'var' | 'parameter' | 'import' | 'function' | 'class' | 'loop' | 'catch';

export interface Binding {
  kind: BindingKind;
  /** The declaring node: a variable declarator, a parameter, an import specifier… */
  node: SyntaxNode;
  /** The initial value of a declarator whose name is the identifier itself (not destructured). */
  value?: SyntaxNode;
  /** The node whose statements can see the binding (a block, a function, the program). */
  scope: SyntaxNode;
}

/** True when `pattern` (an identifier or a destructuring pattern) binds `name`. */
function patternBinds(pattern: SyntaxNode | null, name: string): boolean {
  if (!pattern) return false;
  if (pattern.type === 'identifier' || pattern.type === 'shorthand_property_identifier_pattern') return pattern.text === name;
  return pattern.namedChildren.some((child) => {
    if (child.type === 'pair_pattern') return patternBinds(child.childForFieldName('value'), name);
    if (child.type === 'assignment_pattern' || child.type === 'object_assignment_pattern') {
      return patternBinds(child.childForFieldName('left') ?? child.namedChildren[0], name);
    }
    if (child.type === 'rest_pattern') return patternBinds(child.namedChildren[0], name);
    if (child.type === 'required_parameter' || child.type === 'optional_parameter') return patternBinds(child.childForFieldName('pattern'), name);
    return patternBinds(child, name);
  });
}

function declarationBinding(statement: SyntaxNode, name: string, scope: SyntaxNode): Binding | undefined {
  const declaration = statement.type === 'export_statement' ? statement.childForFieldName('declaration') : statement;
  if (!declaration) return undefined;
  switch (declaration.type) {
    case 'lexical_declaration':
    case 'variable_declaration': {
      const kind = declaration.type === 'variable_declaration' ? 'var' : declaration.child(0)?.text === 'let' ? 'let' : 'const';
      for (const declarator of declaration.namedChildren) {
        if (declarator.type !== 'variable_declarator') continue;
        const pattern = declarator.childForFieldName('name');
        if (!patternBinds(pattern, name)) continue;
        const value = pattern?.type === 'identifier' ? (declarator.childForFieldName('value') ?? undefined) : undefined;
        return { kind, node: declarator, value, scope };
      }
      return undefined;
    }
    case 'function_declaration':
    case 'generator_function_declaration':
      return declaration.childForFieldName('name')?.text === name ? { kind: 'function', node: declaration, scope } : undefined;
    case 'class_declaration':
    case 'abstract_class_declaration':
      return declaration.childForFieldName('name')?.text === name ? { kind: 'class', node: declaration, scope } : undefined;
    case 'import_statement':
      return importBinds(declaration, name) ? { kind: 'import', node: declaration, scope } : undefined;
    default:
      return undefined;
  }
}

function importBinds(statement: SyntaxNode, name: string): boolean {
  const clause = statement.namedChildren.find((c) => c.type === 'import_clause');
  if (!clause) return false;
  return clause.descendantsOfType(['identifier']).some((id) => {
    // `import { a as b }` binds `b` only.
    const specifier = id.parent?.type === 'import_specifier' ? id.parent : undefined;
    const local = specifier ? (specifier.childForFieldName('alias') ?? specifier.childForFieldName('name')) : id;
    return local?.startIndex === id.startIndex && id.text === name;
  });
}

function parameterBinding(fn: SyntaxNode, name: string): Binding | undefined {
  const single = fn.childForFieldName('parameter');
  if (single) return single.text === name ? { kind: 'parameter', node: single, scope: fn } : undefined;
  const params = fn.childForFieldName('parameters');
  if (params && patternBinds(params, name)) return { kind: 'parameter', node: params, scope: fn };
  return undefined;
}

/** The declaration an identifier refers to, searching enclosing blocks outwards; undefined for globals. */
export function findBinding(identifier: SyntaxNode): Binding | undefined {
  const name = identifier.text;
  for (let scope = identifier.parent; scope; scope = scope.parent) {
    if (scope.type === 'statement_block' || scope.type === 'program' || scope.type === 'switch_case') {
      for (const statement of scope.namedChildren) {
        const binding = declarationBinding(statement, name, scope);
        if (binding) return binding;
      }
    } else if (isFunctionNode(scope)) {
      const binding = parameterBinding(scope, name);
      if (binding) return binding;
    } else if (scope.type === 'for_in_statement' && patternBinds(scope.childForFieldName('left'), name)) {
      return { kind: 'loop', node: scope, scope };
    } else if (scope.type === 'for_statement') {
      const init = scope.childForFieldName('initializer');
      const binding = init ? declarationBinding(init, name, scope) : undefined;
      if (binding) return { ...binding, kind: 'loop' };
    } else if (scope.type === 'catch_clause' && patternBinds(scope.childForFieldName('parameter'), name)) {
      return { kind: 'catch', node: scope, scope };
    }
  }
  return undefined;
}

export interface Contribution {
  /** `=` replaces the value, `+=` appends to it. */
  operator: '=' | '+=';
  value: SyntaxNode;
}

/**
 * Every value a local variable is given in its scope: its initialiser and, for `let`/`var`, each
 * later `=` or `+=`. Undefined when the variable has no visible initialiser (a parameter, an
 * import, a destructured name) or is changed another way.
 */
export function valuesOf(binding: Binding, name: string): Contribution[] | undefined {
  if (binding.kind !== 'const' && binding.kind !== 'let' && binding.kind !== 'var') return undefined;
  if (!binding.value) return undefined;
  const values: Contribution[] = [{ operator: '=', value: binding.value }];
  if (binding.kind === 'const') return values;
  for (const assignment of binding.scope.descendantsOfType(['assignment_expression', 'augmented_assignment_expression'])) {
    if (assignment.childForFieldName('left')?.text !== name) continue;
    const operator = assignment.childForFieldName('operator')?.text ?? '=';
    const value = assignment.childForFieldName('right');
    if (!value || (operator !== '=' && operator !== '+=')) return undefined;
    values.push({ operator, value });
  }
  return values;
}
