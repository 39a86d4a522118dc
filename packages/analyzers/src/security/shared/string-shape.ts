// How a string handed to a dangerous sink is built: literal text, or text with parts whose value
// the code does not fix. Injection rules report only when some part is not known and not trusted.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { argumentsOf, calleeOf, literalString, unwrap } from './syntax.js';
import { findBinding, valuesOf } from './scope.js';

export type BuiltBy = 'literal' | 'template' | 'concatenation' | 'variable' | 'expression';

export interface StringShape {
  builtBy: BuiltBy;
  /** The literal pieces joined, to recognise SQL or a shell command. */
  staticText: string;
  /** Parts whose value is not known from the code. */
  dynamicParts: SyntaxNode[];
  /** The local variable the value was traced through (`cmd` in `exec(cmd)`). */
  via?: string;
}

const MAX_DEPTH = 4;
/** Node's own constant locations: not attacker-controlled. */
const TRUSTED_GLOBALS = /^(?:__dirname|__filename|process\.(?:execPath|platform|arch|pid|ppid)|import\.meta\.(?:dirname|filename|url))$/;
/**
 * Conversions to numbers, digests, and escaping or identifier-quoting helpers (knex's
 * `formatter.wrap`, `columnize`, `parameter`) make a part safe to splice into a command or query.
 */
const SAFE_CALL =
  /^(?:Number|parseInt|parseFloat|Math|escape\w*|\w*[Ee]scape\w*|\w*[Qq]uote\w*|\w*[Ss]anitize\w*|hash\w*|\w*Hash|digest|format|ident|identifier|literal|wrap|wrapIdentifier\w*|columnize|parameter|parameterize|toFixed|toISOString|getTime|valueOf)$/;
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

const literal = (text: string): StringShape => ({ builtBy: 'literal', staticText: text, dynamicParts: [] });

function combine(builtBy: BuiltBy, parts: StringShape[]): StringShape {
  const dynamicParts = parts.flatMap((p) => p.dynamicParts);
  const via = parts.find((p) => p.via)?.via;
  return {
    builtBy: dynamicParts.length > 0 ? builtBy : 'literal',
    staticText: parts.map((p) => p.staticText).join(''),
    dynamicParts,
    ...(via ? { via } : {}),
  };
}

/** `ids.map(() => '?').join(', ')`: placeholders generated from a list are safe in SQL. */
function isPlaceholderList(node: SyntaxNode): boolean {
  const callee = calleeOf(node);
  if (callee?.name !== 'join' || callee.object?.type !== 'call_expression') return false;
  const map = calleeOf(callee.object);
  const callback = map?.name === 'map' ? argumentsOf(callee.object)[0] : undefined;
  const body = callback?.childForFieldName('body');
  return !!body && /^['"`][?$:@]/.test(unwrap(body).text);
}

/** A part that cannot carry outside input: numbers, constants, escaped or numeric conversions. */
export function isTrustedPart(node: SyntaxNode): boolean {
  const n = unwrap(node);
  switch (n.type) {
    case 'number':
    case 'true':
    case 'false':
    case 'null':
    case 'undefined':
      return true;
    case 'identifier':
      return CONSTANT_NAME.test(n.text) || TRUSTED_GLOBALS.test(n.text);
    case 'member_expression': {
      const property = n.childForFieldName('property')?.text ?? '';
      return TRUSTED_GLOBALS.test(n.text) || CONSTANT_NAME.test(property) || property === 'length' || property === 'size';
    }
    case 'unary_expression':
      return n.child(0)?.text === 'typeof' || n.child(0)?.text === '-' || n.child(0)?.text === '+';
    case 'binary_expression': {
      const operator = n.childForFieldName('operator')?.text ?? '';
      return ['-', '*', '/', '%', '**', '|', '&', '>>', '<<'].includes(operator);
    }
    case 'ternary_expression': {
      const consequence = n.childForFieldName('consequence');
      const alternative = n.childForFieldName('alternative');
      return !!consequence && !!alternative && isKnownOrTrusted(consequence) && isKnownOrTrusted(alternative);
    }
    case 'call_expression': {
      const callee = calleeOf(n);
      const name = callee?.name ?? '';
      const objectName = callee?.object?.text ?? '';
      // A piece cut out of a safe value is safe: `now.toISOString().slice(0, 10)`.
      if (/^(?:slice|substring|substr|padStart|padEnd|trim|toUpperCase|toLowerCase)$/.test(name) && callee?.object?.type === 'call_expression')
        return isTrustedPart(callee.object);
      // `Database.sqlHourOffset()`: a static method called without arguments picks a fragment from
      // class-level state (the dialect); no request value is handed to it.
      const staticFragment = /^[A-Z][A-Za-z0-9]*$/.test(objectName) && argumentsOf(n).length === 0 && !CONSTANT_NAME.test(objectName);
      return SAFE_CALL.test(name) || objectName === 'Math' || isPlaceholderList(n) || returnsOnlyLiterals(n, name) || staticFragment;
    }
    default:
      return false;
  }
}

const FUNCTION_TYPES = ['function_declaration', 'method_definition'];

/**
 * A call of a function or method declared in this file whose every `return` gives a string literal
 * (`static sqlHourOffset() { return isSqlite ? "DATETIME('now', ? || ' hours')" : "DATE_ADD(…)"; }`):
 * a fixed fragment chosen by the code.
 */
function returnsOnlyLiterals(call: SyntaxNode, name: string): boolean {
  if (!name) return false;
  const declarations = call.tree.rootNode.descendantsOfType(FUNCTION_TYPES).filter((fn) => fn.childForFieldName('name')?.text === name);
  if (declarations.length !== 1) return false;
  const body = declarations[0].childForFieldName('body');
  const returns = body ? body.descendantsOfType('return_statement') : [];
  return (
    returns.length > 0 &&
    returns.every((r) => {
      const value = r.namedChildren.find((c) => c.type !== 'comment');
      return !!value && literalString(value) !== undefined;
    })
  );
}

function isKnownOrTrusted(node: SyntaxNode): boolean {
  return literalString(node) !== undefined || isTrustedPart(node);
}

/** The shape of a string expression, following local variables up to a few steps. */
export function shapeOf(node: SyntaxNode, depth = 0): StringShape {
  const n = unwrap(node);
  const text = literalString(n);
  if (text !== undefined) return literal(text);
  // A constant's own value says more than its name, so identifiers are resolved first.
  if (n.type !== 'identifier' && isTrustedPart(n)) return literal(n.type === 'number' ? n.text : '');
  if (depth > MAX_DEPTH) return { builtBy: 'expression', staticText: '', dynamicParts: [n] };
  switch (n.type) {
    case 'template_string':
      return combine(
        'template',
        n.namedChildren.map((child) => {
          if (child.type === 'template_substitution') {
            const inner = child.namedChildren.find((c) => c.type !== 'comment');
            return inner ? shapeOf(inner, depth + 1) : literal('');
          }
          return literal(child.type === 'comment' ? '' : child.text);
        }),
      );
    case 'binary_expression': {
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (n.childForFieldName('operator')?.text !== '+' || !left || !right) break;
      return combine('concatenation', [shapeOf(left, depth + 1), shapeOf(right, depth + 1)]);
    }
    case 'ternary_expression': {
      const branches = [n.childForFieldName('consequence'), n.childForFieldName('alternative')].filter((b): b is SyntaxNode => !!b);
      const shapes = branches.map((b) => shapeOf(b, depth + 1));
      const dynamic = shapes.find((s) => s.dynamicParts.length > 0);
      return dynamic ?? { builtBy: 'literal', staticText: shapes.map((s) => s.staticText).join(' '), dynamicParts: [] };
    }
    case 'call_expression': {
      // `[a, b].join(' ')` builds a command line from its elements.
      const callee = calleeOf(n);
      if (callee?.name === 'join' && callee.object?.type === 'array') {
        const separator = literalString(argumentsOf(n)[0] ?? n) ?? ',';
        const elements = callee.object.namedChildren.filter((c) => c.type !== 'comment').map((c) => shapeOf(c, depth + 1));
        const joined = combine('concatenation', elements);
        return { ...joined, staticText: elements.map((e) => e.staticText).join(separator) };
      }
      break;
    }
    case 'identifier': {
      const binding = findBinding(n);
      const values = binding ? valuesOf(binding, n.text) : undefined;
      if (!values) return isTrustedPart(n) ? literal('') : { builtBy: 'variable', staticText: '', dynamicParts: [n] };
      const shapes = values.map((v) => shapeOf(v.value, depth + 1));
      const dynamic = shapes.find((s) => s.dynamicParts.length > 0);
      const builtBy = dynamic ? dynamic.builtBy : 'literal';
      return { ...combine(builtBy, shapes), builtBy, via: n.text };
    }
  }
  return { builtBy: 'expression', staticText: '', dynamicParts: [n] };
}

/** Words for a finding's description: how the string was put together. */
export function describeShape(shape: StringShape): string {
  const via = shape.via ? ` (through the variable \`${shape.via}\`)` : '';
  const parts = shape.dynamicParts
    .slice(0, 3)
    .map((p) => `\`${p.text.length > 40 ? `${p.text.slice(0, 37)}...` : p.text}\``)
    .join(', ');
  switch (shape.builtBy) {
    case 'template':
      return `a template literal that splices in ${parts}${via}`;
    case 'concatenation':
      return `string concatenation with ${parts}${via}`;
    case 'variable':
      return `the variable ${parts}, whose value is not a literal${via}`;
    default:
      return `the expression ${parts}${via}`;
  }
}
