// Which exports a namespace import uses. `import * as ns from './m'` reads only the members the
// file names (`ns.a`, `ns.A` in a type, `<ns.Button />`) as long as `ns` itself never escapes;
// once it does (passed to a call, spread, iterated, indexed by a computed key, re-exported,
// assigned, `typeof ns`), any export may be read and the import keeps using every one (`*`).
import type { SyntaxNode } from 'tree-sitter';
/** A local name bound by an import statement (module-facts-builder's ImportBinding). */
interface ImportBinding {
  specifier: string;
  importedName: string;
}
import type { ImportRecord } from './types.js';

/** Parents whose first child `ns` is followed by `.member`. */
const MEMBER_PARENTS = new Set(['member_expression', 'nested_type_identifier', 'nested_identifier']);
const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200c\u200d]/u;

/**
 * Replaces `*` in the names of static namespace imports by the members the file reads, when the
 * namespace never escapes. `require()` and `import x = require()` bindings are left whole.
 */
export function narrowNamespaceImports(imports: ImportRecord[], bindings: ReadonlyMap<string, ImportBinding>, root: SyntaxNode, source: string): void {
  for (const [local, binding] of bindings) {
    if (binding.importedName !== '*') continue;
    const record = imports.find((r) => r.specifier === binding.specifier && (r.kind === 'static' || r.kind === 'type') && r.names.includes('*'));
    if (!record) continue;
    const members = membersRead(local, root, source, record.line);
    // Never read at all: nothing says what it is for (a side-effect import written oddly): left whole.
    if (members === undefined || members.length === 0) continue;
    record.names = [...new Set([...record.names.filter((n) => n !== '*'), ...members])];
  }
}

/** The members of `local` the file reads, or undefined when `local` escapes (or cannot be told). */
function membersRead(local: string, root: SyntaxNode, source: string, importLine: number): string[] | undefined {
  const members = new Set<string>();
  for (let at = source.indexOf(local); at >= 0; at = source.indexOf(local, at + local.length)) {
    const end = at + local.length;
    if ((at > 0 && IDENTIFIER_CHAR.test(source[at - 1])) || (end < source.length && IDENTIFIER_CHAR.test(source[end]))) continue;
    if (at > 0 && source[at - 1] === '.' && source[at - 2] !== '.') continue;
    const node = root.descendantForIndex(at, end);
    if (node.text !== local || !/identifier$/.test(node.type)) continue;
    // Strings, comments and the import statement itself.
    if (node.startPosition.row + 1 === importLine && isInImport(node)) continue;
    const parent = node.parent;
    if (!parent) return undefined;
    if (parent.type === 'property_identifier' || isPropertyName(node, parent)) continue;
    if (MEMBER_PARENTS.has(parent.type) && parent.namedChildren[0]?.startIndex === node.startIndex) {
      const member = parent.namedChildren[parent.namedChildren.length - 1];
      if (!member || member.startIndex === node.startIndex || member.type === 'private_property_identifier') return undefined;
      members.add(member.text);
      continue;
    }
    return undefined;
  }
  return [...members];
}

function isInImport(node: SyntaxNode): boolean {
  for (let n: SyntaxNode | null = node; n; n = n.parent) if (n.type === 'import_statement') return true;
  return false;
}

/** `{ ns: 1 }`, `obj.ns`, `class { ns() {} }`: the same word naming something else. */
function isPropertyName(node: SyntaxNode, parent: SyntaxNode): boolean {
  if (node.type === 'property_identifier' || node.type === 'shorthand_property_identifier_pattern') return true;
  if (parent.type === 'pair' && parent.childForFieldName('key')?.startIndex === node.startIndex) return true;
  return parent.type === 'member_expression' && parent.childForFieldName('property')?.startIndex === node.startIndex;
}
