// Call edges of a module: where it calls what it imports. `f()` of a named or default import calls
// that export; `ns.f()` of a namespace import (or of a whole `require`d module) calls the
// module's export `f`; `X.m()` on an imported object counts as a call of `X`. Each call is placed
// in its innermost enclosing symbol (`fn`, `Class.method`, or '' at module level).
//
// Like import elision, the walk does not visit every call: the identifiers of the text are read
// in one pass, and only an imported name that reads like a call (`f(`, `f<`, `ns.f(`) is looked up
// in the tree to confirm a call (not a string, a comment, a property or a declaration).
import type { SyntaxNode } from 'tree-sitter';
import type { CallRecord, SymbolRecord } from './types.js';

/** A local name an import binds (the module-facts builder's bindings). */
interface ImportBinding {
  specifier: string;
  importedName: string;
  typeOnly: boolean;
}

/** Distinct (caller, module, name) triples kept per file; a generated file cannot grow the graph without bound. */
export const MAX_CALL_RECORDS_PER_FILE = 2_000;

const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200c\u200d]/u;
const DOT = 46;

/** Whether the character at `i` continues an identifier; ASCII without the regular expression. */
function isIdentifierCharAt(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  if (Number.isNaN(c)) return false;
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
  return IDENTIFIER_CHAR.test(source[i]!);
}

export function extractImportedCalls(root: SyntaxNode, source: string, bindings: ReadonlyMap<string, ImportBinding>, symbols: readonly SymbolRecord[]): CallRecord[] {
  const values = new Map([...bindings].filter(([, binding]) => !binding.typeOnly));
  const calls = new Map<string, CallRecord>();
  if (values.size === 0) return [];
  const enclosing = enclosingSymbolFinder(symbols);
  let newlines: number[] | undefined;
  // One pass over the text for all imported names (a search per name costs a pass per import).
  const names = [...values.keys()].sort((a, b) => b.length - a.length).map((name) => name.replace(/\$/g, '\\$'));
  // ASCII boundaries (faster than Unicode classes); the tree check below rejects a name inside a longer identifier.
  const pattern = new RegExp(`(?<![\\w$.])(?:${names.join('|')})(?![\\w$])`, 'g');
  for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
    const start = match.index;
    const at = start + match[0].length;
    const binding = values.get(match[0])!;
    if (!looksLikeCall(source, at)) continue;
    const node = root.descendantForIndex(start, at);
    if (node.startIndex !== start || node.endIndex !== at) continue;
    const name = calledExport(node, binding);
    if (name === undefined) continue;
    newlines ??= newlineOffsets(source);
    const line = lineOf(newlines, start);
    const caller = enclosing(line);
    const key = `${caller}\0${binding.specifier}\0${name}`;
    const known = calls.get(key);
    if (known) known.count++;
    else if (calls.size < MAX_CALL_RECORDS_PER_FILE) calls.set(key, { specifier: binding.specifier, name, caller, line, count: 1 });
  }
  return [...calls.values()].sort((a, b) => a.line - b.line || a.name.localeCompare(b.name));
}

/** The export a reference to an imported binding calls, or undefined when it is not a call. */
function calledExport(node: SyntaxNode, binding: ImportBinding): string | undefined {
  if (node.type !== 'identifier') return undefined;
  const parent = node.parent;
  if (!parent) return undefined;
  if (parent.type === 'call_expression' || parent.type === 'new_expression') {
    return sameNode(parent.firstNamedChild, node) ? binding.importedName === '*' ? undefined : binding.importedName : undefined;
  }
  if (parent.type !== 'member_expression' || !sameNode(parent.firstNamedChild, node)) return undefined;
  const call = parent.parent;
  if (!call || (call.type !== 'call_expression' && call.type !== 'new_expression') || !sameNode(call.firstNamedChild, parent)) return undefined;
  if (binding.importedName !== '*') return binding.importedName;
  const property = parent.lastNamedChild;
  return property?.type === 'property_identifier' ? property.text : undefined;
}

function sameNode(a: SyntaxNode | null, b: SyntaxNode): boolean {
  return a !== null && a.startIndex === b.startIndex && a.endIndex === b.endIndex;
}

function skipSpace(source: string, from: number): number {
  let i = from;
  while (i < source.length && (source[i] === ' ' || source[i] === '\t' || source[i] === '\n' || source[i] === '\r')) i++;
  return i;
}

/** `name(`, `name<`, `name.member(` or `name.member<` after a reference: worth asking the tree. */
function looksLikeCall(source: string, end: number): boolean {
  let i = skipSpace(source, end);
  if (source[i] === '.') {
    i = skipSpace(source, i + 1);
    const start = i;
    while (isIdentifierCharAt(source, i)) i++;
    if (i === start) return false;
    i = skipSpace(source, i);
  }
  return source[i] === '(' || source[i] === '<';
}

function newlineOffsets(source: string): number[] {
  const offsets: number[] = [];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) offsets.push(i);
  return offsets;
}

/** 1-based line of a UTF-16 offset: one more than the newlines before it (binary search). */
function lineOf(newlines: readonly number[], offset: number): number {
  let low = 0;
  let high = newlines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newlines[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low + 1;
}

/**
 * The innermost symbol spanning a line (methods inside their class, nested declarations inside
 * their parents): a table by line, filled from the widest span to the narrowest.
 */
function enclosingSymbolFinder(symbols: readonly SymbolRecord[]): (line: number) => string {
  const spans = symbols
    .filter((s) => s.kind === 'function' || s.kind === 'method' || s.kind === 'class' || s.kind === 'variable' || s.kind === 'namespace')
    .map((s) => ({ name: s.container ? `${s.container}.${s.name}` : s.name, start: s.lineStart, end: s.lineEnd }))
    .sort((a, b) => b.end - b.start - (a.end - a.start));
  let byLine: string[] | undefined;
  return (line) => {
    if (!byLine) {
      byLine = [];
      for (const span of spans) for (let l = span.start; l <= span.end; l++) byLine[l] = span.name;
    }
    return byLine[line] ?? '';
  };
}
