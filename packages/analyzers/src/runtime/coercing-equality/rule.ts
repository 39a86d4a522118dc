// Flags `==`/`!=` comparisons that convert their operands before comparing. `== null` is the one
// idiomatic use (it matches null and undefined exactly) and is left alone.
import { defineRule, type Severity, type SyntaxNode } from '@codehealth/engine';
import { unwrapParentheses } from '../../shared/functions.js';
import { enclosingSymbol } from '../../shared/enclosing-symbol.js';
import { baseName, isStaticTemplate, shortText, stringLiteralValue, titleSymbol } from '../shared/syntax.js';

type OperandKind = 'null' | 'undefined' | 'typeof' | 'boolean' | 'empty-string' | 'zero' | 'container' | 'number' | 'string' | 'other';

interface Trap {
  severity: Severity;
  confidence: number;
  /** What else the comparison matches, for the description. */
  alsoMatches: string;
  /** A replacement that behaves identically, when one exists. */
  sameBehaviour?: string;
}

function operandKind(operand: SyntaxNode): OperandKind {
  const node = unwrapParentheses(operand);
  switch (node.type) {
    case 'null':
      return 'null';
    case 'undefined':
      return 'undefined';
    case 'true':
    case 'false':
      return 'boolean';
    case 'array':
    case 'object':
      return 'container';
    case 'number':
      return Number(node.text) === 0 ? 'zero' : 'number';
    case 'string':
    case 'template_string': {
      if (node.type === 'template_string' && !isStaticTemplate(node)) return 'other';
      const value = node.type === 'string' ? stringLiteralValue(node) : node.text.slice(1, -1);
      if (value === '') return 'empty-string';
      return value === '0' ? 'zero' : 'string';
    }
    case 'unary_expression': {
      const operator = node.childForFieldName('operator')?.type;
      if (operator === 'void') return 'undefined';
      if (operator === 'typeof') return 'typeof';
      if (operator === '-' && node.childForFieldName('argument')?.type === 'number') return operandKind(node.childForFieldName('argument')!);
      return 'other';
    }
    case 'identifier':
      return node.text === 'undefined' ? 'undefined' : 'other';
    default:
      return 'other';
  }
}

const LITERALS: ReadonlySet<OperandKind> = new Set(['boolean', 'empty-string', 'zero', 'container', 'number', 'string', 'null', 'undefined']);

/** The coercion a comparison exposes, by the most telling operand; undefined when it is safe. */
function trapOf(left: OperandKind, right: OperandKind, operator: string): Trap | undefined {
  const kinds = [left, right];
  const has = (kind: OperandKind) => kinds.includes(kind);
  // `== null` is the idiom; typeof yields strings and two literals are constant: no coercion hides a bug there.
  if (has('null') || has('typeof') || (LITERALS.has(left) && LITERALS.has(right))) return undefined;
  if (has('undefined')) {
    return { severity: 'low', confidence: 95, alsoMatches: '`null` as well as `undefined`: it is `x ' + operator + ' null` in disguise', sameBehaviour: `${operator} null` };
  }
  if (has('boolean')) return { severity: 'medium', confidence: 95, alsoMatches: 'numbers and strings by numeric value: `1 == true` and `"1" == true`, but `"yes" == true` is false' };
  if (has('empty-string') || has('zero')) return { severity: 'medium', confidence: 95, alsoMatches: '`0`, `""`, `"0"`, `" "`, `false` and `[]` interchangeably' };
  if (has('container')) return { severity: 'medium', confidence: 95, alsoMatches: 'primitives through `toString()` (`"" == []` is true) and never another array or object' };
  if (has('number') || has('string')) return { severity: 'low', confidence: 80, alsoMatches: 'the same value in another type: `1 == "1"`, `1 == true`, `1 == [1]`' };
  return { severity: 'low', confidence: 60, alsoMatches: 'values of different types after conversion (`"1" == 1`, `0 == ""`, `null == undefined`)' };
}

export const coercingEquality = defineRule({
  kind: 'file',
  meta: {
    id: 'coercing-equality',
    description: '`==` and `!=` comparisons that convert their operands (comparisons with null excepted)',
    category: 'runtime',
    severity: 'medium',
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
    const check = (token: SyntaxNode): void => {
      const comparison = token.parent;
      if (comparison?.type !== 'binary_expression') return;
      const left = comparison.childForFieldName('left');
      const right = comparison.childForFieldName('right');
      if (!left || !right) return;
      const trap = trapOf(operandKind(left), operandKind(right), token.type);
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
        severity: trap.severity,
        confidence: trap.confidence,
        ...(symbol ? { symbol } : {}),
        data: { operator: token.type, ...(trap.sameBehaviour ? { sameBehaviour: trap.sameBehaviour } : {}) },
      });
    };
    return { '==': check, '!=': check };
  },
});
