// Flags async functions registered as event handlers (emitters, DOM listeners, JSX `on…` props,
// timers) whose awaits are not covered by try/catch: nobody handles the promise they return.
import { defineRule, type SyntaxNode, isFunctionNode, unwrapParentheses, enclosingSymbol } from '@codehealth/engine/kit';
import { catchingTry, handlesRejection } from '../shared/guards.js';
import { baseName, calledMethod, calleeOf, isAsyncFunction, titleSymbol } from '../shared/syntax.js';
import { registrationOf } from './registration.js';

/** An awaited promise whose rejection is dealt with on the spot: `await p.catch(h)`, `await Promise.allSettled(…)`. */
function settledInPlace(awaitNode: SyntaxNode): boolean {
  const operand = awaitNode.namedChildren[0] && unwrapParentheses(awaitNode.namedChildren[0]);
  if (operand?.type !== 'call_expression') return false;
  return (
    handlesRejection(operand) ||
    (calledMethod(operand) === 'allSettled' && calleeOf(operand)?.text === 'Promise.allSettled') ||
    NEVER_REJECTS.has(calledMethod(operand) ?? '')
  );
}

/**
 * Methods documented never to reject: TanStack Query's `prefetchQuery`/`prefetchInfiniteQuery` and
 * `refetch()` (errors land in the query's state unless `throwOnError` is set).
 */
const NEVER_REJECTS = new Set(['prefetchQuery', 'prefetchInfiniteQuery', 'refetch']);

/** A file that says it is generated and must not be edited (msw's public/mockServiceWorker.js): the fix belongs to its generator. */
const GENERATED_COPY = /\bdo not (?:modify|edit) this file\b/i;

/** `await` expressions and `for await` loops of `fn` itself (not of nested functions) that no try/catch covers. */
function uncoveredAwaits(fn: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const visit = (node: SyntaxNode): void => {
    if (node.id !== fn.id && isFunctionNode(node)) return;
    const awaits = node.type === 'await_expression' || (node.type === 'for_in_statement' && node.children.some((child) => child.type === 'await'));
    if (awaits && !catchingTry(node) && !(node.type === 'await_expression' && settledInPlace(node))) found.push(node);
    for (const child of node.namedChildren) visit(child);
  };
  visit(fn);
  return found;
}

function lineList(nodes: SyntaxNode[]): string {
  const lines = [...new Set(nodes.map((node) => node.startPosition.row + 1))];
  if (lines.length === 1) return `line ${lines[0]}`;
  const shown = lines.slice(0, 3).join(', ');
  return lines.length > 3 ? `lines ${shown} and ${lines.length - 3} more` : `lines ${shown}`;
}

export const asyncEventHandler = defineRule({
  kind: 'file',
  meta: {
    id: 'async-event-handler',
    description: 'Async functions registered as event handlers or timer callbacks whose awaits no try/catch covers',
    category: 'runtime',
    severity: 'medium',
    confidence: 80,
    docs: {
      whyItMatters:
        'Event emitters, DOM listeners, React props and timers call a handler and ignore what it returns. When an async ' +
        'handler rejects, nobody receives the promise: the rejection is unhandled (Node.js 15+ terminates the process, ' +
        'browsers only log it) and the handler stops half-way, leaving loading states, locks or connections behind.',
      suggestedAction:
        'Wrap the body of the handler in try/catch and handle the error there: show it, log it, release what was acquired. ' +
        'Alternatively register a plain function that calls the async work with `.catch(handleError)`.',
    },
  },
  create(context) {
    if (!context.source.includes('async') || GENERATED_COPY.test(context.source.slice(0, 600))) return {};
    return {
      async(token) {
        const fn = token.parent;
        if (!fn || (fn.type !== 'arrow_function' && fn.type !== 'function_expression') || fn.hasError || !isAsyncFunction(fn)) return;
        const registration = registrationOf(fn);
        if (!registration) return;
        const awaits = uncoveredAwaits(fn);
        if (awaits.length === 0) return;
        const symbol = enclosingSymbol(fn);
        const place = symbol ? titleSymbol(symbol) : baseName(context.file.path);
        context.report({
          node: fn,
          title: `Async ${registration.label} can reject unhandled in ${place}`,
          description:
            `This async function is registered through ${registration.how}, which ignores the promise it returns. The await on ` +
            `${lineList(awaits)} is not covered by try/catch, so a rejection there is unhandled and the handler stops half-way.`,
          severity: registration.processLevel ? 'high' : 'medium',
          ...(symbol ? { symbol } : {}),
          data: { handler: registration.label, uncoveredAwaits: awaits.length },
        });
      },
    };
  },
});
