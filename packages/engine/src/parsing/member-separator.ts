// The `semi: false` gap of tree-sitter-typescript 0.23.2 (upstream issue #335): in an interface or
// object type, a member on its own line is joined to the member before it when the line starts
// with a token after which the grammar's scanner inserts no automatic semicolon. Two such members
// are valid TypeScript: a generic call signature (`<A>(a: A): A`, read as type arguments of the
// previous member's type) and a member named `in` or `instanceof` (read as the operator). The
// repair writes a `;` over the indentation character just before the line's first token.
import { OPAQUE, missingWithin, previousToken, wordEndingAt, type Repair, type RepairContext } from './repair-context.js';

/** A line whose first token (after indentation) is `<` (not `<<`, `<=`) or a member named `in`/`instanceof`. */
const JOINED_LINE = /^[ \t]+(?:<(?![<=])|in(?:stanceof)?(?=[ \t]*\??[ \t]*[:(<]))/gm;

/** Words after which a `<` or `in` on the next line continues the code (or is not ours to touch). */
const CONTINUING_WORDS = new Set([
  'new',
  'extends',
  'keyof',
  'typeof',
  'infer',
  'is',
  'as',
  'satisfies',
  'asserts',
  'readonly',
  'unique',
  'in',
  'of',
  'return',
  'yield',
  'await',
  'throw',
  'case',
  'default',
  'else',
  'do',
  'delete',
]);

/**
 * Nodes that hold type members, and ERROR (where the parser lost the object type); the walk up from
 * the line's first token stops at the first of these or of {@link EXPRESSION_SCOPES}.
 */
const MEMBER_CONTAINERS = new Set(['object_type', 'interface_body', 'ERROR']);
const EXPRESSION_SCOPES = new Set([
  'program',
  'statement_block',
  'class_body',
  'arguments',
  'call_expression',
  'binary_expression',
  'parenthesized_expression',
  'arrow_function',
  'expression_statement',
  'jsx_element',
  'jsx_expression',
]);

/** A `;` before each joined member of the context's text. */
export function findMemberSeparators(context: RepairContext, out: Repair[]): void {
  for (const match of context.text.matchAll(JOINED_LINE)) {
    const first = match.index + match[0].search(/\S/);
    if (needsSeparator(context, first)) out.push({ at: first - 1, text: ';', kind: 'member-separator' });
  }
}

/**
 * Whether the member starting at `first` was joined to the one before: it is a member (a `<…>`
 * that closes into `(`, or `in:`), it sits in an object type or an interface body (however the
 * parser read it there), in an ERROR node or after a MISSING `}` that closed the body early, and
 * the token before it ends a type rather than asking for one (`=>`, `|`, `,`, `{`, `extends` …).
 */
function needsSeparator(context: RepairContext, first: number): boolean {
  const { text, root } = context;
  const node = root.descendantForIndex(first, first + 1);
  if (OPAQUE.has(node.type)) return false;
  if (text[first] === '<' && !opensSignature(text, first)) return false;
  const before = previousToken(context, first);
  if (before < 0 || !endsType(text, before)) return false;
  return inMemberContext(node) || missingWithin(context, before + 1, first);
}

function endsType(text: string, at: number): boolean {
  const c = text[at];
  if (c === '>') return text[at - 1] !== '=';
  if (c === ')' || c === ']' || c === '}' || c === '"' || c === "'" || c === '`') return true;
  const word = wordEndingAt(text, at);
  return word !== '' && !CONTINUING_WORDS.has(word);
}

function inMemberContext(node: RepairContext['root']): boolean {
  for (let at: RepairContext['root'] | null = node, d = 0; at && d < 16; at = at.parent, d++) {
    if (MEMBER_CONTAINERS.has(at.type)) return true;
    if (EXPRESSION_SCOPES.has(at.type)) return false;
  }
  return false;
}

/** Whether the `<` at `angle` closes (angle brackets counted, `=>` aside) into a `(`: type parameters of a signature. */
function opensSignature(text: string, angle: number): boolean {
  let depth = 0;
  const end = Math.min(text.length, angle + 4000);
  for (let i = angle; i < end; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>' && text[i - 1] !== '=' && --depth === 0) {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      return text[j] === '(';
    }
  }
  return false;
}
