// Flags `==`/`!=` comparisons that convert their operands before comparing. `== null` is the one
// idiomatic use (it matches null and undefined exactly) and is left alone.
import { defineRule, roleOfFile, type Severity, type SyntaxNode, unwrapParentheses, enclosingSymbol } from '@codehealth/engine/kit';
import { baseName, isStaticTemplate, shortText, stringLiteralValue, titleSymbol } from '../shared/syntax.js';

type OperandKind = 'null' | 'undefined' | 'typeof' | 'boolean' | 'container' | 'number' | 'string' | 'numeric' | 'stringy' | 'other';

interface Operand {
  kind: OperandKind;
  /** For number and string literals: the value is `0`, `""` or `"0"`, the classic coercion traps. */
  falsy?: boolean;
  /**
   * A string literal that is not a number (`"rtl"`, `"{"`, `"auto_increment"`): `x == "rtl"` holds for
   * the string "rtl" alone among primitives (a number or boolean converts to a number, and "rtl" to NaN),
   * so it behaves as `===` does.
   */
  textual?: boolean;
}

/** A non-empty string that does not convert to a number. */
const isTextual = (value: string | undefined): boolean => value !== undefined && value.trim() !== '' && Number.isNaN(Number(value));

interface Trap {
  severity: Severity;
  confidence: number;
  /** What else the comparison matches, for the description. */
  alsoMatches: string;
  /** A replacement that behaves identically, when one exists. */
  sameBehaviour?: string;
}

/** Members and methods whose value is always a number or always a string, whatever the receiver. */
const NUMERIC_MEMBERS = new Set(['length', 'size', 'byteLength']);
const NUMERIC_METHODS = new Set([
  'indexOf',
  'lastIndexOf',
  'findIndex',
  'findLastIndex',
  'charCodeAt',
  'codePointAt',
  'localeCompare',
  'search',
  'getTime',
  'valueOf',
]);
const NUMERIC_FUNCTIONS = /^(Number|parseInt|parseFloat|Math\.\w+|Date\.now|Number\.\w+)$/;
const STRING_METHODS = new Set([
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'trim',
  'trimStart',
  'trimEnd',
  'toString',
  'join',
  'charAt',
  'substring',
  'padStart',
  'padEnd',
  'toFixed',
]);

function callKind(call: SyntaxNode): OperandKind {
  const callee = call.childForFieldName('function');
  const method = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : undefined;
  if ((method && NUMERIC_METHODS.has(method)) || NUMERIC_FUNCTIONS.test(callee?.text ?? '')) return 'numeric';
  if ((method && STRING_METHODS.has(method)) || callee?.text === 'String') return 'stringy';
  return 'other';
}

function operandOf(operand: SyntaxNode): Operand {
  const node = unwrapParentheses(operand);
  switch (node.type) {
    case 'null':
    case 'undefined':
      return { kind: node.type };
    case 'true':
    case 'false':
      return { kind: 'boolean' };
    case 'array':
    case 'object':
      return { kind: 'container' };
    case 'number':
      return { kind: 'number', falsy: Number(node.text) === 0 };
    case 'string':
      return { kind: 'string', falsy: ['', '0'].includes(stringLiteralValue(node) ?? ''), textual: isTextual(stringLiteralValue(node)) };
    case 'template_string':
      return isStaticTemplate(node)
        ? { kind: 'string', falsy: ['', '0'].includes(node.text.slice(1, -1)), textual: isTextual(node.text.slice(1, -1)) }
        : { kind: 'stringy' };
    case 'unary_expression': {
      const operator = node.childForFieldName('operator')?.type;
      const argument = node.childForFieldName('argument');
      if (operator === 'void') return { kind: 'undefined' };
      if (operator === 'typeof') return { kind: 'typeof' };
      if (operator === '-' && argument?.type === 'number') return operandOf(argument);
      return operator === '+' || operator === '-' || operator === '~' ? { kind: 'numeric' } : { kind: 'other' };
    }
    case 'identifier':
      return { kind: node.text === 'undefined' ? 'undefined' : 'other' };
    case 'member_expression':
      return { kind: NUMERIC_MEMBERS.has(node.childForFieldName('property')?.text ?? '') ? 'numeric' : 'other' };
    case 'call_expression':
      return { kind: callKind(node) };
    default:
      return { kind: 'other' };
  }
}

const LITERALS: ReadonlySet<OperandKind> = new Set(['boolean', 'container', 'number', 'string', 'null', 'undefined']);

/** Pairs that compare values of one type: `==` does not convert anything there. */
function sameType(a: OperandKind, b: OperandKind): boolean {
  const pair = (x: OperandKind, y: OperandKind) => (a === x && b === y) || (a === y && b === x);
  return pair('numeric', 'number') || pair('numeric', 'numeric') || pair('stringy', 'string') || pair('stringy', 'stringy');
}

/** The coercion a comparison exposes, by the most telling operand; undefined when it is safe. */
function trapOf(left: Operand, right: Operand, operator: string): Trap | undefined {
  const kinds = [left.kind, right.kind];
  const has = (kind: OperandKind) => kinds.includes(kind);
  // `== null` is the idiom; typeof yields strings and two literals are constant: no coercion hides a bug there.
  if (has('null') || has('typeof') || (LITERALS.has(left.kind) && LITERALS.has(right.kind)) || sameType(left.kind, right.kind)) return undefined;
  if ((left.textual || right.textual) && !has('boolean') && !has('container')) return undefined;
  if (has('undefined')) {
    return {
      severity: 'low',
      confidence: 95,
      alsoMatches: '`null` as well as `undefined`: it is `x ' + operator + ' null` in disguise',
      sameBehaviour: `${operator} null`,
    };
  }
  if (has('boolean'))
    return {
      severity: 'medium',
      confidence: 95,
      alsoMatches: 'numbers and strings by numeric value: `1 == true` and `"1" == true`, but `"yes" == true` is false',
    };
  if (left.falsy || right.falsy) return { severity: 'medium', confidence: 95, alsoMatches: '`0`, `""`, `"0"`, `" "`, `false` and `[]` interchangeably' };
  if (has('container'))
    return { severity: 'medium', confidence: 95, alsoMatches: 'primitives through `toString()` (`"" == []` is true) and never another array or object' };
  if (has('number') || has('string'))
    return { severity: 'low', confidence: 80, alsoMatches: 'the same value in another type: `1 == "1"`, `1 == true`, `1 == [1]`' };
  return { severity: 'low', confidence: 60, alsoMatches: 'values of different types after conversion (`"1" == 1`, `0 == ""`, `null == undefined`)' };
}

export const coercingEquality = defineRule({
  kind: 'file',
  meta: {
    id: 'coercing-equality',
    description: '`==` and `!=` comparisons that convert their operands (comparisons with null excepted)',
    category: 'runtime',
    // Demoted to info (issue 17): without types most `==` on the panel compared values of one type
    // (counters with 0, ids with ids); see the README.
    severity: 'info',
    confidence: 80,
    docs: {
      whyItMatters:
        '`==` converts its operands before comparing, following rules few people remember: `0 == ""`, `"0" == false` and ' +
        '`[] == false` are all true while `"yes" == true` is false. Code that works for the values its author tried ' +
        'misbehaves for others, and such bugs are hard to see in review.',
      suggestedAction:
        'Use `===`/`!==` and convert explicitly where conversion is meant (`Number(x) === 0`, `x === ""`). To test for null ' +
        'or undefined together, `x == null` is the accepted idiom.',
    },
  },
  create(context) {
    // A documentation site's scripts and the libraries vendored into its assets (mobx ships
    // CodeMirror, 420 of the panel's findings) are not the project's comparisons.
    if (roleOfFile(context.file) === 'docs') return {};
    const check = (token: SyntaxNode): void => {
      const comparison = token.parent;
      if (comparison?.type !== 'binary_expression' || comparison.hasError) return;
      const left = comparison.childForFieldName('left');
      const right = comparison.childForFieldName('right');
      if (!left || !right) return;
      const trap = trapOf(operandOf(left), operandOf(right), token.type);
      if (!trap) return;
      const symbol = enclosingSymbol(comparison);
      const place = symbol ? titleSymbol(symbol) : baseName(context.file.path);
      const text = shortText(comparison, 50);
      const strict = `${token.type}=`;
      context.report({
        node: comparison,
        title: `Coercing comparison ${text} in ${place}`,
        description:
          `\`${text}\` on line ${comparison.startPosition.row + 1} uses \`${token.type}\`, which converts its operands first, so it also matches ` +
          `${trap.alsoMatches}. ${trap.sameBehaviour ? `\`${trap.sameBehaviour}\` says the same plainly; \`${strict} undefined\` excludes null.` : `Use \`${strict}\` to compare without conversion.`}`,
        severity: 'info',
        confidence: trap.confidence,
        ...(symbol ? { symbol } : {}),
        data: { operator: token.type, trap: trap.severity, ...(trap.sameBehaviour ? { sameBehaviour: trap.sameBehaviour } : {}) },
      });
    };
    return { '==': check, '!=': check };
  },
});
