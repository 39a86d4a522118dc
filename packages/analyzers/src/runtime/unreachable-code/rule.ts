// Flags statements that can never run: after return, throw, break or continue in the same block,
// or after an if/else or try whose every path leaves the block.
import { defineRule, type SyntaxNode, enclosingSymbol } from '@codehealth/engine/kit';
import { baseName, codeChildren, shortText, titleSymbol } from '../shared/syntax.js';

const JUMPS: ReadonlySet<string> = new Set(['return_statement', 'throw_statement', 'break_statement', 'continue_statement']);
const STATEMENT_LISTS: ReadonlySet<string> = new Set(['statement_block', 'program', 'switch_case', 'switch_default', 'class_static_block']);
/** Declarations that take effect without running (hoisted or erased), so they are not dead where they stand. */
const INERT: ReadonlySet<string> = new Set([
  'function_declaration',
  'generator_function_declaration',
  'type_alias_declaration',
  'interface_declaration',
  'ambient_declaration',
  'empty_statement',
]);

/** True when every path through `statement` leaves the statement list it stands in. */
export function alwaysExits(statement: SyntaxNode | null | undefined): boolean {
  if (!statement) return false;
  switch (statement.type) {
    case 'return_statement':
    case 'throw_statement':
    case 'break_statement':
    case 'continue_statement':
      return true;
    case 'statement_block':
      return codeChildren(statement).some(alwaysExits);
    case 'if_statement': {
      const alternative = statement.childForFieldName('alternative');
      return alwaysExits(statement.childForFieldName('consequence')) && alwaysExits(alternative ? codeChildren(alternative)[0] : null);
    }
    case 'try_statement': {
      const finalizer = statement.childForFieldName('finalizer');
      if (finalizer && alwaysExits(finalizer.childForFieldName('body'))) return true;
      const handler = statement.childForFieldName('handler');
      return alwaysExits(statement.childForFieldName('body')) && (!handler || alwaysExits(handler.childForFieldName('body')));
    }
    default:
      return false;
  }
}

/** `var x;` is hoisted and has no effect where it stands; with an initializer it does. */
function isInert(statement: SyntaxNode): boolean {
  if (INERT.has(statement.type)) return true;
  if (statement.type === 'variable_declaration') return codeChildren(statement).every((d) => !d.childForFieldName('value'));
  if (statement.type === 'export_statement') {
    const declaration = statement.childForFieldName('declaration');
    return declaration !== null && INERT.has(declaration.type);
  }
  return false;
}

/** `return`, …, or `if/else` and `try` for compound statements whose every path exits. */
function exitKind(statement: SyntaxNode): string {
  if (statement.type === 'if_statement') return 'if/else';
  return statement.type.replace('_statement', '');
}

export const unreachableCode = defineRule({
  kind: 'file',
  meta: {
    id: 'unreachable-code',
    description: 'Statements that can never run because every path before them leaves the block',
    category: 'runtime',
    severity: 'medium',
    confidence: 95,
    docs: {
      whyItMatters:
        'Code after a return, throw, break or continue never runs. It is usually the trace of a bug — a misplaced early ' +
        'return, a cleanup that was meant to happen, a forgotten branch — and readers assume it does something.',
      suggestedAction: 'Decide what was intended: move the statements before the exit if they must run, or delete them if they are leftovers.',
    },
  },
  create(context) {
    const reported = new Set<number>();
    const check = (statement: SyntaxNode): void => {
      // Most exits end their block: the sibling test comes first because this runs on every return.
      let next = statement.nextNamedSibling;
      while (next?.type === 'comment') next = next.nextNamedSibling;
      if (!next) return;
      const list = statement.parent;
      if (!list || !STATEMENT_LISTS.has(list.type) || reported.has(list.id)) return;
      if (!alwaysExits(statement) || list.hasError) return;
      const after: SyntaxNode[] = [];
      for (; next; next = next.nextNamedSibling) {
        if (next.type !== 'comment' && !isInert(next)) after.push(next);
      }
      if (after.length === 0) return;
      reported.add(list.id);
      const first = after[0];
      const last = after[after.length - 1];
      // Leftover jumps (`return x; break;`) are harmless noise; anything else is a lost effect or a bug.
      const harmless = after.every((s) => JUMPS.has(s.type) && codeChildren(s).length === 0);
      const symbol = enclosingSymbol(statement);
      const place = symbol ? titleSymbol(symbol) : baseName(context.file.path);
      const kind = exitKind(statement);
      const jump = JUMPS.has(statement.type);
      const count = after.length === 1 ? 'the statement' : `the ${after.length} statements`;
      const lines =
        first.startPosition.row === last.endPosition.row
          ? `line ${first.startPosition.row + 1}`
          : `lines ${first.startPosition.row + 1}–${last.endPosition.row + 1}`;
      context.report({
        lineStart: first.startPosition.row + 1,
        lineEnd: last.endPosition.row + 1,
        title: `Unreachable code after ${jump ? kind : `${kind === 'try' ? 'a try' : 'an if/else'} that always exits`} in ${place}`,
        description:
          `The ${jump ? `\`${kind}\`` : `${kind} statement`} on line ${statement.startPosition.row + 1} leaves the block on every path, ` +
          `so ${count} on ${lines} (starting with \`${shortText(first, 50)}\`) never run.`,
        severity: harmless ? 'low' : 'medium',
        confidence: jump ? 95 : 90,
        ...(symbol ? { symbol } : {}),
        data: { exit: kind, statements: after.length },
      });
    };
    const visitor: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of JUMPS) visitor[type] = check;
    visitor.if_statement = (node) => {
      if (node.childForFieldName('alternative')) check(node);
    };
    visitor.try_statement = check;
    return visitor;
  },
});
