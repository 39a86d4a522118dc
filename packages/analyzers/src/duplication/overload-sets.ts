// Overload sets: the consecutive signatures of one TypeScript function or method and the header
// of its implementation. Typing a variadic API this way repeats a growing parameter list on
// purpose (rxjs's `pipe` has ten signatures), so a clone that stays inside one set is the
// idiom, not copy-paste.
import type { NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';

const SIGNATURE_TYPES = ['function_signature', 'method_signature', 'abstract_method_signature', 'call_signature', 'construct_signature'] as const;
const IMPLEMENTATION_TYPES = ['function_declaration', 'generator_function_declaration', 'method_definition'] as const;
/** Words that may stand between two signatures of one set, or before the implementation. */
const TRIVIA_WORDS = new Set(['export', 'default', 'declare']);

interface Member {
  start: number;
  end: number;
  name: string;
}

function signatureName(node: SyntaxNode): string {
  if (node.type === 'call_signature') return '()';
  if (node.type === 'construct_signature') return 'new';
  return node.childForFieldName('name')?.text ?? '';
}

/** True when `source[from, to)` holds only whitespace, comments, separators and `export`/`declare`. */
export function isTrivia(source: string, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const c = source.charCodeAt(i);
    if (c <= 32 || c === 59 || c === 44) i++;
    else if (c === 47 && source.charCodeAt(i + 1) === 47) {
      const lf = source.indexOf('\n', i);
      i = lf < 0 ? to : lf;
    } else if (c === 47 && source.charCodeAt(i + 1) === 42) {
      const close = source.indexOf('*/', i + 2);
      if (close < 0 || close + 2 > to) return false;
      i = close + 2;
    } else {
      const word = /^[a-z]+/.exec(source.slice(i, Math.min(to, i + 8)))?.[0];
      if (!word || !TRIVIA_WORDS.has(word)) return false;
      i += word.length;
    }
  }
  return true;
}

/** Declarations whose header a generic parameter list belongs to. */
const HEADER_OWNERS: ReadonlySet<string> = new Set([
  'class_declaration',
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'function_declaration',
  'function_signature',
  'method_signature',
  'method_definition',
  'call_signature',
  'construct_signature',
  'arrow_function',
  'function_type',
]);

/** Where a declaration's header starts: at `export`/`declare` when it is wrapped in one. */
function headerStart(owner: SyntaxNode): number {
  const parent = owner.parent;
  return parent?.type === 'export_statement' || parent?.type === 'ambient_declaration' ? parent.startIndex : owner.startIndex;
}

/** Collects overload sets during the walk; `sets()` gives their `[start, end)` offsets, flattened. */
export function createOverloadSetCollector(source: string): { visitor: NodeVisitor; sets(): number[] } {
  const sets: number[] = [];
  let current: { start: number; end: number; name: string; members: number } | undefined;

  const close = (): void => {
    if (current && current.members >= 2) sets.push(current.start, current.end);
    current = undefined;
  };
  const continues = (member: Member): boolean =>
    current !== undefined && current.name === member.name && current.end <= member.start && isTrivia(source, current.end, member.start);

  /**
   * A signature's end with its separator (`;` or `,`) and, for the last member of an interface or
   * object type, the brace that closes it: copies of two such lists end alike.
   */
  const signatureEnd = (node: SyntaxNode): number => {
    let end = node.endIndex;
    let i = end;
    const skipSpace = (): void => {
      while (i < source.length && source.charCodeAt(i) <= 32) i++;
    };
    skipSpace();
    if (source[i] === ';' || source[i] === ',') {
      end = ++i;
      skipSpace();
    }
    const parent = node.parent;
    if ((parent?.type === 'object_type' || parent?.type === 'interface_body') && source[i] === '}' && i === parent.endIndex - 1) end = parent.endIndex;
    return end;
  };
  const onSignature = (node: SyntaxNode): void => {
    // `export function f(): void;` and `declare function f(): void;` start at their keyword.
    const wrapper = node.parent?.type === 'export_statement' || node.parent?.type === 'ambient_declaration' ? node.parent : node;
    const member = { start: wrapper.startIndex, end: signatureEnd(node), name: signatureName(node) };
    if (!member.name) return close();
    if (continues(member)) {
      current!.end = member.end;
      current!.members++;
    } else {
      close();
      current = { ...member, members: 1 };
    }
  };
  const onImplementation = (node: SyntaxNode): void => {
    // Cheap test first: most functions follow no signature at all.
    if (!current || current.end > node.startIndex || !isTrivia(source, current.end, node.startIndex)) return;
    const body = node.childForFieldName('body');
    const member = { start: node.startIndex, end: body?.startIndex ?? node.endIndex, name: node.childForFieldName('name')?.text ?? '' };
    if (continues(member)) {
      current!.end = member.end;
      current!.members++;
    }
    close();
  };

  // A generic parameter list (`<E extends Env = BlankEnv, P extends string = '/', …>`) is the same
  // idiom: related types and their wrappers repeat it on purpose. Kept apart from the sets above.
  const typeParameterLists: number[] = [];
  const visitor: NodeVisitor = {
    type_parameters: (node) => {
      if (node.endPosition.row <= node.startPosition.row) return;
      // With the header it opens (`export class Hono<`, `setQueryData<`, `$path: <`) and, for a
      // signature, the parameters that follow: a typed header repeated by related declarations.
      const owner = node.parent;
      const start = owner && HEADER_OWNERS.has(owner.type) ? headerStart(owner) : node.startIndex;
      const params = owner?.childForFieldName('parameters');
      const end = params && params.startIndex >= node.endIndex ? params.endIndex : node.endIndex;
      typeParameterLists.push(start, end);
    },
  };
  for (const type of SIGNATURE_TYPES) visitor[type] = onSignature;
  for (const type of IMPLEMENTATION_TYPES) visitor[type] = onImplementation;
  return {
    visitor,
    sets() {
      close();
      // Sorted by start: type parameter lists may lie inside a set already (a signature's own).
      const all: Array<[number, number]> = [];
      for (let i = 0; i < sets.length; i += 2) all.push([sets[i], sets[i + 1]]);
      for (let i = 0; i < typeParameterLists.length; i += 2) {
        const [start, end] = [typeParameterLists[i], typeParameterLists[i + 1]];
        if (!all.some(([s, e]) => s <= start && end <= e)) all.push([start, end]);
      }
      return all.sort((a, b) => a[0] - b[0]).flat();
    },
  };
}
