// Repairs that blank out with spaces what tree-sitter-typescript 0.23.2 has no rule for, where the
// tree shows an error there: the `type` of `export type * from '…'` (TypeScript 5.0), variance
// annotations of type parameters (`<in out K>`, TypeScript 4.7) and escape sequences in template
// literal types (`\`` in a type ends it in the grammar). The tree loses nothing a rule reads:
// variance has no node to become, escapes sit inside a string fragment, and extract-exports reads
// `type` back from the statement's text (node texts are the original's).
import type { SyntaxNode } from 'tree-sitter';
import { OPAQUE, hasAncestor, previousToken, wordEndingAt, type Repair, type RepairContext } from './repair-context.js';

const EXPORT_TYPE_STAR = /export\s+type\s+\*/g;
/** `in` or `out` before a name: a variance annotation when it opens a type parameter. */
const VARIANCE = /\b(?:in|out)(?=\s+[A-Za-z_$])/g;
const ERROR = new Set(['ERROR']);
const TYPE_PARAMETER_PARTS = new Set(['type_parameters', 'type_parameter', 'ERROR']);
const MODIFIERS = new Set(['in', 'out', 'const']);

export function findBlankedTokens(context: RepairContext, out: Repair[]): void {
  const { text, root } = context;
  if (text.includes('export')) {
    for (const match of text.matchAll(EXPORT_TYPE_STAR)) {
      const at = match.index + match[0].indexOf('type', 6);
      if (hasAncestor(root.descendantForIndex(at, at + 4), ERROR, 1)) out.push({ at, text: '    ', kind: 'export-type-star' });
    }
  }
  for (const match of text.matchAll(VARIANCE)) {
    const at = match.index;
    // Most matches are `K in keyof T` or `x in y`: the text before them settles it without the tree.
    if (!mayOpenTypeParameter(text, at)) continue;
    const node = root.descendantForIndex(at, at + match[0].length);
    if (OPAQUE.has(node.type) || !hasAncestor(node, TYPE_PARAMETER_PARTS, 3) || !opensTypeParameter(context, at)) continue;
    out.push({ at, text: ' '.repeat(match[0].length), kind: 'variance' });
  }
  if (text.includes('`')) findTemplateEscapes(context, out);
}

/** Escapes of template literal types the parser stumbled on; each such type is blanked whole, once. */
function findTemplateEscapes(context: RepairContext, out: Repair[]): void {
  const { text, root } = context;
  let end = 0;
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', at + 2)) {
    if (at < end) continue;
    const template = templateOf(root.descendantForIndex(at, at + 1));
    if (template) end = blankTemplateEscapes(text, template.startIndex, out);
  }
}

/** The template literal type with errors that the node at a backslash belongs to (an escape in its ERROR child). */
function templateOf(node: SyntaxNode): SyntaxNode | undefined {
  for (let at: SyntaxNode | null = node, d = 0; at && d <= 3; at = at.parent, d++) {
    if (at.type === 'template_literal_type') return at.hasError ? at : undefined;
  }
  return undefined;
}

/** Whether the text before `at` is `<`, `,`, a modifier or may be the end of a comment (then the tree tells). */
function mayOpenTypeParameter(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  const c = text[i];
  if (c === '<' || c === ',' || c === '/' || MODIFIERS.has(wordEndingAt(text, i))) return true;
  return text.lastIndexOf('//', i) > text.lastIndexOf('\n', i);
}

/** Whether the word at `at` follows `<`, `,` or another modifier (comments skipped). */
function opensTypeParameter(context: RepairContext, at: number): boolean {
  const before = previousToken(context, at);
  if (before < 0) return false;
  const c = context.text[before];
  return c === '<' || c === ',' || MODIFIERS.has(wordEndingAt(context.text, before));
}

/**
 * Each escape from the opening backtick at `start` to the real closing one becomes spaces (a
 * backslash before a line break alone, so that lines stay where they are). Returns where it stopped.
 */
function blankTemplateEscapes(text: string, start: number, out: Repair[]): number {
  let braces = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const escaped = text[i + 1];
      const width = escaped === '\n' || escaped === '\r' || escaped === undefined ? 1 : 2;
      out.push({ at: i, text: ' '.repeat(width), kind: 'template-escape' });
      i += width - 1;
    } else if (c === '$' && text[i + 1] === '{') {
      braces++;
      i++;
    } else if (c === '}' && braces > 0) braces--;
    else if (c === '`' && braces === 0) return i;
  }
  return text.length;
}
