// Numbers that say what they are without a name: character codes compared with a character,
// HTTP status codes compared with a status, time units, powers of two and bit masks, and numbers
// explained by a comment on their line. Each is a class of false positive seen on real code.
import type { SyntaxNode } from '@codehealth/engine/kit';

/** Seconds, minutes, hours, days, weeks and years in the units below them (and in milliseconds). */
const TIME_UNITS: ReadonlySet<number> = new Set([24, 60, 365, 3600, 86400, 604800, 60000, 3600000, 86400000, 604800000]);
/** Factors whose product with a count is a duration: `5 * 60 * 1000`, `30 * 24`. */
const DURATION_FACTORS: ReadonlySet<number> = new Set([...TIME_UNITS, 1000]);
/** Degrees of a right angle, a half turn and a full turn; one half. */
const WELL_KNOWN: ReadonlySet<number> = new Set([0.5, 90, 180, 360]);
/** `text.charCodeAt(i)`, `s.codePointAt(0)`. */
const CHARACTER_CODE_CALL = /\.\s*(?:charCodeAt|codePointAt)\s*\(/;
/** Names that hold a character code by convention (`(char: number) => char === 32`). */
const CHARACTER_CODE_NAME = /^(?:ch|chr|char|charCode|charcode|codePoint|codepoint|cp|cc)$/;
/** `res.status`, `statusCode`, `xhr.status`, `parsedCode`: the last name of the compared value. */
const STATUS_NAME = /(?:status|statusCode|httpStatus|Code)$/;

const isPowerOfTwo = (value: number): boolean => value > 0 && Number.isInteger(Math.log2(value));

/** 8, 16, 32, 64, 256, 1024...: sizes in bits and bytes; 255, 0xffff, 2^31 - 1, 2^53 - 1: their limits. */
export function isBinaryBoundary(value: number): boolean {
  if (!Number.isInteger(value) || value < 8) return false;
  return isPowerOfTwo(value) || (value >= 255 && isPowerOfTwo(value + 1));
}

export function isWellKnown(value: number): boolean {
  return WELL_KNOWN.has(Math.abs(value));
}

/** The names in `source` bound to a character code: `const c = name.charCodeAt(i)`. */
export function characterCodeNames(source: string): Set<string> {
  const names = new Set<string>();
  if (!/charCodeAt|codePointAt/.test(source)) return names;
  for (const match of source.matchAll(/([A-Za-z_$][\w$]*)\s*=\s*[^;=\n]*\.\s*(?:charCodeAt|codePointAt)\s*\(/g)) names.add(match[1]);
  return names;
}

/** The other operand of the binary expression `user`, parentheses removed. */
function otherOperand(user: SyntaxNode, literal: SyntaxNode): SyntaxNode | null {
  const left = user.childForFieldName('left');
  const contains = left !== null && left.startIndex <= literal.startIndex && left.endIndex >= literal.endIndex;
  let other = contains ? user.childForFieldName('right') : left;
  while (other?.type === 'parenthesized_expression') other = other.firstNamedChild;
  return other;
}

/** `c === 0x28`, `text.charCodeAt(i) === 10`: the number is a character, compared with one. */
export function comparesCharacterCode(user: SyntaxNode, literal: SyntaxNode, codeNames: ReadonlySet<string>): boolean {
  const other = otherOperand(user, literal);
  if (!other) return false;
  if (other.type === 'identifier') return codeNames.has(other.text) || CHARACTER_CODE_NAME.test(other.text);
  return other.type === 'call_expression' && CHARACTER_CODE_CALL.test(other.text);
}

/** Bounds of clock and calendar fields, compared with a field of that name: `hours > 23`, `minute <= 59`. */
const CLOCK_BOUNDS: ReadonlySet<number> = new Set([7, 12, 23, 24, 28, 29, 30, 31, 59, 60, 61, 365, 366, 999, 1000]);
const CLOCK_FIELD = /(?:hour|minute|second|day|month|week|year|millisecond|ms)s?(?:Number|Value)?$/i;

export function boundsClockField(user: SyntaxNode, literal: SyntaxNode, value: number): boolean {
  if (!CLOCK_BOUNDS.has(value)) return false;
  const other = otherOperand(user, literal);
  if (other?.type !== 'identifier' && other?.type !== 'member_expression') return false;
  return CLOCK_FIELD.test(other.text.slice(other.text.lastIndexOf('.') + 1));
}

/** `arguments.length > 4`: an arity check, whose bound is the signature it checks. */
export function checksArity(user: SyntaxNode, literal: SyntaxNode): boolean {
  return otherOperand(user, literal)?.text === 'arguments.length';
}

/** `res.status !== 200`, `status < 400`, `parsedCode >= 200`: an HTTP status code compared with a status. */
export function comparesHttpStatus(user: SyntaxNode, literal: SyntaxNode, value: number): boolean {
  if (!Number.isInteger(value) || value < 100 || value > 599) return false;
  const other = otherOperand(user, literal);
  if (other?.type !== 'identifier' && other?.type !== 'member_expression') return false;
  return STATUS_NAME.test(other.text.slice(other.text.lastIndexOf('.') + 1));
}

/** The outermost `*` expression around `node` (`5 * 60 * 1000` from any of its literals). */
function productOf(node: SyntaxNode): SyntaxNode {
  let top = node;
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === 'parenthesized_expression') continue;
    if (up.type !== 'binary_expression' || up.childForFieldName('operator')?.type !== '*') break;
    top = up;
  }
  return top;
}

function hasDurationFactor(node: SyntaxNode, literalValue: (text: string) => number): boolean {
  if (node.type === 'number') return DURATION_FACTORS.has(literalValue(node.text));
  if (node.type === 'parenthesized_expression') return node.firstNamedChild !== null && hasDurationFactor(node.firstNamedChild, literalValue);
  if (node.type !== 'binary_expression' || node.childForFieldName('operator')?.type !== '*') return false;
  return hasDurationFactor(node.childForFieldName('left')!, literalValue) || hasDurationFactor(node.childForFieldName('right')!, literalValue);
}

/**
 * `ms / 60000`, `minutes % 60`, and every count in a product with a time unit (`5 * 60 * 1000`,
 * `30 * 24`): a duration spelled in its units.
 */
export function isTimeArithmetic(user: SyntaxNode, literal: SyntaxNode, value: number, operator: string, literalValue: (text: string) => number): boolean {
  if (operator !== '*' && operator !== '/' && operator !== '%' && operator !== '*=' && operator !== '/=') return false;
  if (TIME_UNITS.has(Math.abs(value))) return true;
  if (operator !== '*') return false;
  const product = productOf(literal);
  return product !== literal && hasDurationFactor(product, literalValue) && user.type === 'binary_expression';
}

/** A comment on the number's line names it: `c === 0x2d // -`, `charCodeAt(0) === 111 /* o *\/`. */
export function hasCommentOnLine(literal: SyntaxNode, commentRows: ReadonlySet<number>): boolean {
  return commentRows.has(literal.startPosition.row);
}
