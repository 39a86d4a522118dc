// Function-like and class-like syntax nodes of the TypeScript/TSX grammars, how to name them and
// what encloses a node: one home for the summary (FunctionSummary names) and for every rule (the
// finding's `symbol`, which feeds issue identity, comes from `enclosingSymbol` here).
import type { SyntaxNode } from 'tree-sitter';

/**
 * Node types that have a body and run as a function. Overload and interface signatures
 * (`function_signature`, `method_signature`, `abstract_method_signature`) have no body and are
 * left out, as ESLint's `:function` leaves out their ESTree counterparts. (`function` is the
 * keyword's token in these grammars, not a node kind: the walk visits tokens too.)
 */
export const FUNCTION_NODE_TYPES = [
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'generator_function',
  'arrow_function',
  'method_definition',
] as const;

const FUNCTION_TYPES: ReadonlySet<string> = new Set(FUNCTION_NODE_TYPES);

export function isFunctionNode(node: SyntaxNode): boolean {
  return FUNCTION_TYPES.has(node.type);
}

/** Class declarations and class expressions. */
export const CLASS_NODE_TYPES = ['class_declaration', 'abstract_class_declaration', 'class'] as const;

const CLASS_TYPES: ReadonlySet<string> = new Set(CLASS_NODE_TYPES);

export function isClassNode(node: SyntaxNode): boolean {
  return CLASS_TYPES.has(node.type);
}

/** The function a node belongs to (its innermost enclosing function), or undefined at module level. */
export function enclosingFunction(node: SyntaxNode): SyntaxNode | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (isFunctionNode(parent)) return parent;
  }
  return undefined;
}

/**
 * The finding `symbol` of a node (issue identity): the qualified name of the innermost enclosing
 * function (`outer > inner`, as `qualifiedFunctionName` builds it); outside any function, the
 * innermost named enclosing class; else undefined. Computed on demand by climbing the ancestors:
 * for rules that report rarely, cheaper than tracking scopes on every node of the walk.
 */
export function enclosingSymbol(node: SyntaxNode): string | undefined {
  const functions: SyntaxNode[] = [];
  let className: string | undefined;
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (isFunctionNode(parent)) functions.push(parent);
    else if (className === undefined && functions.length === 0 && isClassNode(parent)) {
      className = parent.childForFieldName('name')?.text;
    }
  }
  if (functions.length === 0) return className;
  let name: string | undefined;
  for (let i = functions.length - 1; i >= 0; i--) name = qualifiedFunctionName(functions[i], name);
  return name;
}

/**
 * The name a function's summary (`FunctionSummary.name`) carries: its own name, else the variable, property, field or
 * assignment target it is bound to, else `<anonymous>`. Methods are prefixed with their class.
 */
export function functionNameOf(node: SyntaxNode): string {
  const own = node.childForFieldName('name');
  if (own && node.type !== 'method_definition') return own.text;
  if (node.type === 'method_definition') {
    const cls = enclosingClassName(node);
    return cls ? `${cls}.${own?.text ?? '<method>'}` : (own?.text ?? '<method>');
  }
  const parent = node.parent;
  if (!parent) return '<anonymous>';
  switch (parent.type) {
    case 'variable_declarator':
    case 'public_field_definition':
    case 'field_definition': {
      const name = parent.childForFieldName('name') ?? parent.childForFieldName('property');
      const cls = parent.type === 'variable_declarator' ? undefined : enclosingClassName(parent);
      if (name) return cls ? `${cls}.${name.text}` : name.text;
      break;
    }
    case 'pair': {
      const key = parent.childForFieldName('key');
      if (key) return key.text.replace(/^['"]|['"]$/g, '');
      break;
    }
    case 'assignment_expression': {
      const left = parent.childForFieldName('left');
      if (left) return left.text;
      break;
    }
  }
  return '<anonymous>';
}

function enclosingClassName(node: SyntaxNode): string | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (isClassNode(p)) return p.childForFieldName('name')?.text;
  }
  return undefined;
}

// Names for findings (`symbol`, titles): a function as written or inferred from where it is stored.

/** The expression inside parentheses; comments inside them are named children too. */
export function parenthesizedExpression(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type !== 'parenthesized_expression') return undefined;
  return node.namedChildren.find((child) => child.type !== 'comment');
}

/** Parentheses are transparent in ESTree; skipping them keeps our shapes comparable to ESLint's. */
export function unwrapParentheses(node: SyntaxNode): SyntaxNode {
  let current = node;
  for (let inner = parenthesizedExpression(current); inner; inner = parenthesizedExpression(current)) current = inner;
  return current;
}

/** The nearest ancestor that is not a parenthesized expression. */
export function parentSkippingParentheses(node: SyntaxNode): SyntaxNode | null {
  let parent = node.parent;
  while (parent?.type === 'parenthesized_expression') parent = parent.parent;
  return parent;
}

function propertyKeyText(key: SyntaxNode | null): string | undefined {
  if (!key) return undefined;
  return key.type === 'computed_property_name' ? key.text : key.text.replace(/^['"]|['"]$/g, '');
}

function classNameOf(classBody: SyntaxNode | null): string | undefined {
  const owner = classBody?.parent;
  if (!owner || !isClassNode(owner)) return undefined;
  return owner.childForFieldName('name')?.text ?? bindingName(owner);
}

/** The name a value gets from where it is stored: `const x = …`, `x: …`, `this.x = …`, a class field. */
function bindingName(value: SyntaxNode): string | undefined {
  const parent = parentSkippingParentheses(value);
  if (!parent) return undefined;
  switch (parent.type) {
    case 'variable_declarator':
      return parent.childForFieldName('name')?.text;
    case 'pair':
      return propertyKeyText(parent.childForFieldName('key'));
    case 'assignment_expression':
      return parent.childForFieldName('left')?.text;
    case 'public_field_definition': {
      const field = propertyKeyText(parent.childForFieldName('name'));
      const className = classNameOf(parent.parent);
      return className && field ? `${className}.${field}` : field;
    }
    case 'export_statement':
      // Only `export default function () {}` reaches here without a name of its own.
      return 'default';
    default:
      return undefined;
  }
}

/** `items.map(x => …)` gives `map callback`: enough to tell sibling callbacks apart in a report. */
function callbackName(fn: SyntaxNode): string | undefined {
  const args = parentSkippingParentheses(fn);
  if (args?.type !== 'arguments') return undefined;
  const callee = args.parent?.childForFieldName('function');
  if (!callee) return undefined;
  const last = callee.type === 'member_expression' ? callee.childForFieldName('property') : callee;
  // `(function (f) { … })(factory)`: a callee that is not a name would put its whole text in the symbol.
  const name = last?.text ?? '';
  return /^#?[\w$]+$/.test(name) ? `${name} callback` : 'callback';
}

/** The name of a function as written, or inferred from its binding, without enclosing scopes. */
export function localFunctionName(fn: SyntaxNode): string {
  if (fn.type === 'method_definition') {
    const method = propertyKeyText(fn.childForFieldName('name')) ?? '(anonymous)';
    const className = classNameOf(fn.parent);
    return className ? `${className}.${method}` : method;
  }
  const ownName = fn.childForFieldName('name')?.text;
  // A declaration is known by its own name; an expression by the binding it is stored in.
  if (ownName && (fn.type === 'function_declaration' || fn.type === 'generator_function_declaration')) return ownName;
  return bindingName(fn) ?? ownName ?? callbackName(fn) ?? '(anonymous)';
}

/** Qualified name for the finding's `symbol`: nested functions carry their enclosing function's name. */
export function qualifiedFunctionName(fn: SyntaxNode, enclosing: string | undefined): string {
  const local = localFunctionName(fn);
  return enclosing ? `${enclosing} > ${local}` : local;
}
