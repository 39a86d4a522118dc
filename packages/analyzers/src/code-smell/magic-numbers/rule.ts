// Flags unnamed numeric literals in arithmetic and comparisons (`retries > 3`, `size * 1.2`),
// where a named constant would say what the number means. Quiet in benchmarks.
import { defineRule, type SyntaxNode, enclosingSymbol } from '@codehealth/engine/kit';
import { z } from 'zod';
import { isMinified } from '../shared/roles.js';
import { isNamedConstantValue, literalValue } from './constants.js';
import {
  characterCodeNames,
  comparesCharacterCode,
  comparesHttpStatus,
  hasCommentOnLine,
  boundsClockField,
  checksArity,
  isBinaryBoundary,
  isTimeArithmetic,
  isWellKnown,
} from './well-known.js';

const DEFAULT_IGNORE = [-1, 0, 1, 2];

const options = z
  .object({
    ignore: z.array(z.number()).default(DEFAULT_IGNORE),
    ignoreScaleFactors: z.boolean().default(true),
    ignoreWellKnown: z.boolean().default(true),
  })
  .strict()
  .default({ ignore: DEFAULT_IGNORE, ignoreScaleFactors: true, ignoreWellKnown: true });

const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '**']);
const COMPARISON = new Set(['<', '>', '<=', '>=', '==', '===', '!=', '!==']);
const AUGMENTED = new Set(['+=', '-=', '*=', '/=', '%=', '**=']);
/** Expressions a literal's value flows through on its way to a declaration or statement. */
const EXPRESSION_CHAIN = new Set([
  'binary_expression',
  'unary_expression',
  'parenthesized_expression',
  'ternary_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'type_assertion',
]);
const PARAMETERS = new Set(['required_parameter', 'optional_parameter', 'assignment_pattern', 'object_assignment_pattern']);
/** Powers of ten scale a value, or (`%`) take its last digits: `n % 10`, `n % 100`. */
const SCALING = new Set(['*', '/', '**', '*=', '/=', '%', '%=']);
const SCREAMING = /^[A-Z][A-Z0-9_]*$/;

/** 10, 100, 1000...: `x * 100` for a percentage, `ms / 1000` for seconds, `Math.round(x * 10) / 10`. */
function isPowerOfTen(value: number): boolean {
  return Number.isInteger(value) && /^10+$/.test(String(value));
}

/** `30 * DAY_MS`: a quantity of a named unit says what it is. */
function multipliesNamedUnit(user: SyntaxNode, literal: SyntaxNode): boolean {
  if (user.type !== 'binary_expression' || operatorOf(user) !== '*') return false;
  const left = user.childForFieldName('left');
  const other = left?.id === literal.id ? user.childForFieldName('right') : left;
  if (other?.type === 'identifier') return SCREAMING.test(other.text);
  return other?.type === 'member_expression' && SCREAMING.test(other.childForFieldName('property')?.text ?? '');
}

function operatorOf(node: SyntaxNode): string | undefined {
  return node.childForFieldName('operator')?.type;
}

/** The outermost expression the literal is part of, and what holds it. */
function holderOf(literal: SyntaxNode): { top: SyntaxNode; holder: SyntaxNode | null } {
  let top = literal;
  let holder = literal.parent;
  while (holder && EXPRESSION_CHAIN.has(holder.type)) {
    top = holder;
    holder = holder.parent;
  }
  return { top, holder };
}

/** Places where a number names itself or is conventionally bare (documented in the README). */
function isExempt(top: SyntaxNode, holder: SyntaxNode | null): boolean {
  if (!holder) return false;
  switch (holder.type) {
    case 'enum_assignment':
      return true;
    case 'subscript_expression':
      return holder.childForFieldName('index')?.id === top.id;
    case 'variable_declarator': {
      const declaration = holder.parent;
      const isConst = declaration?.type === 'lexical_declaration' && declaration.firstChild?.type === 'const';
      return isConst && isNamedConstantValue(top);
    }
    case 'public_field_definition':
      return holder.children.some((child) => child.type === 'readonly') && isNamedConstantValue(top);
    default:
      return PARAMETERS.has(holder.type);
  }
}

/** Expressions quoted in titles are cut to this many characters. */
const MAX_QUOTE = 50;

function snippet(node: SyntaxNode): string {
  const text = node.text.replace(/\s+/g, ' ');
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - '...'.length)}...` : text;
}

export const magicNumbers = defineRule({
  kind: 'file',
  meta: {
    id: 'magic-numbers',
    description: 'Unnamed numeric literals in arithmetic and comparisons',
    category: 'code_smell',
    // info: on a labelled sample of the panel, reviewers agreed with about half of the findings
    // (README, Precision); whether a number needs a name stays a judgement.
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 60,
    docs: {
      whyItMatters:
        'A bare number in a calculation or a comparison does not say what it stands for (a limit, a unit, a ' +
        'status code), so readers have to guess, and when it changes every copy has to be found and changed alike.',
      suggestedAction:
        'Give the number a name: a `const` (SCREAMING_CASE for module-level settings), an enum member, or an ' +
        'option with a default, and use the name in the expression.',
    },
  },
  create(context) {
    // The product's code only: a benchmark's sizes are its subject, and the numbers of examples,
    // demos, documentation sites (often vendored scripts) and tooling are not settings awaiting a name.
    if (isMinified(context.source)) return {};
    const { ignoreScaleFactors, ignoreWellKnown } = context.options;
    const codeNames = ignoreWellKnown ? characterCodeNames(context.source) : new Set<string>();
    const commentRows = new Set<number>();
    const ignore = new Set(context.options.ignore);
    // One finding per number and enclosing function: the same constant repeated is one missing name.
    const found = new Map<string, Occurrence[]>();
    const onNumber = (node: SyntaxNode): void => {
      // Most literals are 0, 1 or 2 either way round: decided from the text alone, before any tree access.
      const magnitude = literalValue(node.text);
      if (Number.isNaN(magnitude) || (ignore.has(magnitude) && ignore.has(-magnitude))) return;
      const parent = node.parent;
      const sign = parent?.type === 'unary_expression' ? operatorOf(parent) : undefined;
      const negated = sign === '-' || sign === '+';
      const literal = negated ? parent! : node;
      const value = magnitude * (sign === '-' ? -1 : 1);
      if (ignore.has(value)) return;
      let user = literal.parent;
      while (user?.type === 'parenthesized_expression') user = user.parent;
      if (!user) return;
      const operator = operatorOf(user) ?? '';
      const inArithmetic = user.type === 'binary_expression' && (ARITHMETIC.has(operator) || COMPARISON.has(operator));
      const inUpdate = user.type === 'augmented_assignment_expression' && AUGMENTED.has(operator);
      if (!inArithmetic && !inUpdate) return;
      if (ignoreScaleFactors && SCALING.has(operator) && isPowerOfTen(Math.abs(value))) return;
      if (multipliesNamedUnit(user, literal)) return;
      if (ignoreWellKnown && isWellKnownUse(user, literal, value, operator)) return;
      const { top, holder } = holderOf(literal);
      if (isExempt(top, holder)) return;
      const where = enclosingSymbol(literal);
      const key = `${where ?? ''}\u0000${value}`;
      const occurrence = { literal, user, value, comparison: COMPARISON.has(operator) };
      if (ignoreWellKnown) pending.push([key, occurrence]);
      else add(key, occurrence);
    };
    // Comments are seen during the walk too: numbers explained on their line are dropped at the end.
    const pending: Array<[string, Occurrence]> = [];
    const isWellKnownUse = (user: SyntaxNode, literal: SyntaxNode, value: number, operator: string): boolean =>
      isWellKnown(value) ||
      isBinaryBoundary(Math.abs(value)) ||
      isTimeArithmetic(user, literal, value, operator, literalValue) ||
      (COMPARISON.has(operator) &&
        (comparesCharacterCode(user, literal, codeNames) ||
          comparesHttpStatus(user, literal, value) ||
          checksArity(user, literal) ||
          boundsClockField(user, literal, value)));
    const add = (key: string, occurrence: Occurrence): void => {
      const list = found.get(key);
      if (list) list.push(occurrence);
      else found.set(key, [occurrence]);
    };
    const report = (): void => {
      for (const [key, occurrence] of pending) if (!hasCommentOnLine(occurrence.literal, commentRows)) add(key, occurrence);
      for (const [key, occurrences] of found) {
        const where = key.slice(0, key.indexOf('\u0000')) || undefined;
        const [{ literal, user, value, comparison }] = occurrences;
        const raw = literal.text;
        const lines = [...new Set(occurrences.map((o) => o.literal.startPosition.row + 1))];
        const times = occurrences.length > 1 ? ` (${occurrences.length} times${where ? ` in ${where}` : ''})` : '';
        context.report({
          node: literal,
          title: `Magic number ${raw} in \`${snippet(user)}\`${times}`,
          description:
            `The literal ${raw} is used in ${comparison ? 'a comparison' : 'arithmetic'} (\`${snippet(user)}\`)` +
            `${where ? ` in ${where}` : ''} without a name that says what it stands for` +
            (lines.length > 1 ? `; it appears on lines ${lines.join(', ')}.` : '.'),
          symbol: where,
          data: { value, kind: comparison ? 'comparison' : 'arithmetic', occurrences: occurrences.length },
        });
      }
    };
    const onComment = (node: SyntaxNode): void => {
      commentRows.add(node.startPosition.row);
    };
    return { number: onNumber, comment: onComment, 'program:exit': report };
  },
});

interface Occurrence {
  literal: SyntaxNode;
  user: SyntaxNode;
  value: number;
  comparison: boolean;
}
