// Call edges of a module: where it calls what it imports. `f()` of a named or default import calls
// that export; `ns.f()` of a namespace import (or of a whole `import x = require()`d module) calls
// the module's export `f`; `X.m()` on an imported object counts as a call of `X`; `new X()` counts
// like a call. Each call is placed in its innermost enclosing symbol (`fn`, `Class.method`, or ''
// at module level).
//
// The module-facts visitor hands the call and `new` expressions of the single walk to
// `readImportedCall` (a module's imports are read first, at its program node); `settleCalls`
// groups them by caller once the walk has seen every declaration.
import type { SyntaxNode } from 'tree-sitter';
import type { CallRecord, SymbolRecord } from './types.js';

/** Distinct (caller, module, export) records kept per file: a generated file cannot grow the graph without bound. */
export const MAX_CALL_RECORDS_PER_FILE = 2_000;

/** A local name an import binds (the module-facts builder's bindings). */
interface ImportBinding {
  specifier: string;
  importedName: string;
  typeOnly: boolean;
}

/** A call of an imported binding as the walk meets it. */
export interface RawCall {
  specifier: string;
  name: string;
  line: number;
}

/** The imported export a call or `new` expression calls, if any. */
export function readImportedCall(node: SyntaxNode, bindings: ReadonlyMap<string, ImportBinding>): RawCall | undefined {
  const callee = node.firstNamedChild;
  if (!callee) return undefined;
  let binding: ImportBinding | undefined;
  let name: string | undefined;
  if (callee.type === 'identifier') {
    binding = bindings.get(callee.text);
    name = binding?.importedName === '*' ? undefined : binding?.importedName;
  } else if (callee.type === 'member_expression') {
    const object = callee.firstNamedChild;
    if (object?.type !== 'identifier') return undefined;
    binding = bindings.get(object.text);
    if (binding?.importedName === '*') {
      const property = callee.lastNamedChild;
      name = property?.type === 'property_identifier' ? property.text : undefined;
    } else name = binding?.importedName;
  }
  if (!binding || binding.typeOnly || name === undefined) return undefined;
  return { specifier: binding.specifier, name, line: node.startPosition.row + 1 };
}

/** Groups calls by (caller, module, export), with the first call's line and the number of calls. */
export function settleCalls(raw: readonly RawCall[], symbols: readonly SymbolRecord[]): CallRecord[] {
  if (raw.length === 0) return [];
  const enclosing = enclosingSymbolFinder(symbols);
  const calls = new Map<string, CallRecord>();
  for (const { specifier, name, line } of raw) {
    const caller = enclosing(line);
    const key = `${caller}\0${specifier}\0${name}`;
    const known = calls.get(key);
    if (known) known.count++;
    else if (calls.size < MAX_CALL_RECORDS_PER_FILE) calls.set(key, { specifier, name, caller, line, count: 1 });
  }
  return [...calls.values()].sort((a, b) => a.line - b.line || a.name.localeCompare(b.name));
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
  // The index of the span owning each line, in a typed array: a string array filled from a late
  // first line fell back to dictionary elements (a hash insert per line of every span).
  let last = 0;
  for (const span of spans) if (span.end > last) last = span.end;
  const owner = new Int32Array(last + 1).fill(-1);
  spans.forEach((span, k) => {
    if (span.start <= span.end) owner.fill(k, Math.max(0, span.start), span.end + 1);
  });
  return (line) => {
    const k = line >= 0 && line <= last ? owner[line] : -1;
    return k >= 0 ? spans[k].name : '';
  };
}
