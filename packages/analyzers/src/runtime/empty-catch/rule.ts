// Flags error handlers that discard the error: empty `catch` blocks and empty promise rejection
// handlers (`.catch(() => {})`), unless a comment or the binding's name says it is on purpose.
import { defineRule, type Severity, type SyntaxNode, unwrapParentheses, enclosingSymbol } from '@codehealth/engine/kit';
import { z } from 'zod';
import { methodCallOf, nodesAtMatches } from '../shared/source-search.js';
import { baseName, callArguments, calleeOf, codeChildren, enclosingFunction, hasCommentChild, memberObject, shortText, titleSymbol } from '../shared/syntax.js';

const options = z
  .object({
    /** A comment inside the empty handler explains it (ESLint's no-empty); `false` reports those as `info`. */
    allowComments: z.boolean().default(true),
  })
  .strict()
  .default({ allowComments: true });

/** A catch binding named like this says the error is ignored on purpose (`_`, `_err`, `ignored`). */
const INTENTIONAL_NAME = /^(_|ignored?|expected|unused)/i;
const HANDLER_CALL = /\.\s*(catch|then)\s*\(/g;

type Emptiness = 'empty' | 'commented' | undefined;

const DECLARATIONS = new Set(['lexical_declaration', 'variable_declaration']);

/** Best-effort cleanup whose failure changes nothing the code can act on: closing a broken connection. */
const CLEANUP =
  /^(?:close|destroy|disconnect|cancel|abort|release|end|terminate|kill|unlink|rm|rmdir|unref|removeListener|off|closeResultSet|cleanup|dispose)$/;

/** The method or function name a call ends with: `connection.close()` → `close`. */
function calledName(call: SyntaxNode): string | undefined {
  const callee = call.childForFieldName('function');
  if (!callee) return undefined;
  return callee.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee.text;
}

/** `try { socket.disconnect(); } catch {}`: a try block that is one cleanup call. */
function isCleanupTry(tryBlock: SyntaxNode | null | undefined): boolean {
  const statements = tryBlock ? codeChildren(tryBlock) : [];
  if (statements.length !== 1 || statements[0].type !== 'expression_statement') return false;
  let expression = codeChildren(statements[0])[0];
  if (expression?.type === 'await_expression') expression = expression.namedChildren[0];
  return expression?.type === 'call_expression' && CLEANUP.test(calledName(expression) ?? '');
}

/**
 * The next statement that runs after `statement` falls through: its next sibling, or, when it ends a
 * block of an `if`/`else`, the statement after that `if` (not past the enclosing function).
 */
function codeAfter(statement: SyntaxNode | null): SyntaxNode | undefined {
  for (let current = statement; current;) {
    let next = current.nextNamedSibling;
    while (next?.type === 'comment') next = next.nextNamedSibling;
    if (next && next.type !== 'else_clause') return next;
    const block = current.parent;
    if (block?.type !== 'statement_block' && block?.type !== 'else_clause') return undefined;
    const owner: SyntaxNode | null = block.type === 'else_clause' ? block.parent : block.parent;
    if (!owner || (owner.type !== 'if_statement' && owner.type !== 'else_clause')) return undefined;
    current = owner.type === 'else_clause' ? owner.parent : owner;
  }
  return undefined;
}

/**
 * A `try` whose failure leaves a fallback in place, on purpose:
 * - `try { return compute(); } catch {}` followed by the fallback (or the implicit `undefined`): the
 *   block falls through to the alternative, as `catch { return fallback }` would;
 * - `let x = fallback; try { const s = stat(p); x = s.size; } catch {}`: declarations then one
 *   assignment, whose failure keeps the value set before;
 * - `try { mod = require('optional'); } catch {}` and `require.resolve(…)` probes of optional modules.
 */
function isFallbackProbe(tryBlock: SyntaxNode | null | undefined): boolean {
  const statements = tryBlock ? codeChildren(tryBlock) : [];
  const last = statements.at(-1);
  if (!last) return false;
  // The fallback must be there: code after the try statement (a bare `return await fetch(url)` that
  // ends the function would silently return undefined instead).
  const after = codeAfter(tryBlock!.parent);
  if (last.type === 'return_statement' && codeChildren(last).length > 0 && after) return true;
  // `try { if (isErrorLike(x)) { …; return copy; } } catch {}` then the next way: the same fallback chain.
  if (last.type === 'if_statement' && !last.childForFieldName('alternative') && after) {
    const consequence = last.childForFieldName('consequence');
    const final = consequence?.type === 'statement_block' ? codeChildren(consequence).at(-1) : consequence;
    if (final?.type === 'return_statement' && codeChildren(final).length > 0) return true;
  }
  if (/\brequire\.resolve\s*\(/.test(tryBlock!.text)) return true;
  if (statements.length === 1 && /\b(require|import)\s*\(/.test(last.text)) return true;
  const assigns = last.type === 'expression_statement' && codeChildren(last)[0]?.type === 'assignment_expression';
  return assigns && statements.slice(0, -1).every((s) => DECLARATIONS.has(s.type) || /\b(require|import)\s*\(/.test(s.text));
}

/** An empty block. A block with any statement, a bare `return;` included, handles the error its own way. */
function blockEmptiness(block: SyntaxNode | null): Emptiness {
  if (block?.type !== 'statement_block') return undefined;
  if (codeChildren(block).length > 0) return undefined;
  return hasCommentChild(block) ? 'commented' : 'empty';
}

/**
 * A comment that explains the empty handler from just outside it: after the last statement of the
 * `try` block or between it and `catch` (`// eslint-disable-next-line no-empty`), or any no-empty
 * suppression in the `try` statement.
 */
function explainedOutside(tryStatement: SyntaxNode | null): boolean {
  const tryBlock = tryStatement?.childForFieldName('body');
  if (!tryStatement || !tryBlock) return false;
  if (/\bno-empty\b/.test(tryStatement.text)) return true;
  const last = tryBlock.namedChildren.at(-1);
  if (last?.type === 'comment') return true;
  return tryBlock.nextNamedSibling?.type === 'comment';
}

/** `void p.catch(() => {})`: the chain is discarded with `void`, on purpose. */
function discardedWithVoid(call: SyntaxNode): boolean {
  let node: SyntaxNode = call;
  while (
    node.parent &&
    (node.parent.type === 'parenthesized_expression' || (node.parent.type === 'member_expression' && node.parent.parent?.type === 'call_expression'))
  ) {
    node = node.parent.type === 'member_expression' ? node.parent.parent! : node.parent;
  }
  return node.parent?.type === 'unary_expression' && node.parent.childForFieldName('operator')?.type === 'void';
}

/** A comment on the line above the statement holding the call, or at the end of its line. */
function commentNextTo(call: SyntaxNode): boolean {
  let statement: SyntaxNode | null = call;
  while (statement && !statement.type.endsWith('statement')) statement = statement.parent;
  if (!statement) return false;
  const before = statement.previousNamedSibling;
  if (before?.type === 'comment' && before.endPosition.row >= statement.startPosition.row - 1) return true;
  const after = statement.nextNamedSibling;
  return after?.type === 'comment' && after.startPosition.row === statement.endPosition.row;
}

/** `() => {}`, `function () {}`, `() => undefined`, `() => void 0`, `noop`, `_.noop`. */
function handlerEmptiness(handler: SyntaxNode): Emptiness {
  const fn = unwrapParentheses(handler);
  // A handler named `noop` says the rejection is dropped on purpose, as a comment would.
  if (fn.type === 'identifier' || fn.type === 'member_expression') {
    return /(^|\.)noop$/i.test(fn.text) ? 'commented' : undefined;
  }
  if (fn.type !== 'arrow_function' && fn.type !== 'function_expression') return undefined;
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  if (body.type === 'statement_block') return blockEmptiness(body);
  const value = unwrapParentheses(body);
  const discarded =
    value.type === 'undefined' ||
    (value.type === 'identifier' && value.text === 'undefined') ||
    (value.type === 'unary_expression' && value.childForFieldName('operator')?.type === 'void');
  return discarded ? 'empty' : undefined;
}

/**
 * True when the chain's value is thrown away (a statement, `await` as a statement, `void`). When it
 * is used instead (`const x = await p.catch(() => undefined)`), `undefined` is a fallback result that
 * the code goes on to check, the promise form of `try { … } catch { return undefined }`.
 */
function valueDiscarded(call: SyntaxNode): boolean {
  for (let parent = call.parent; parent; parent = parent.parent) {
    if (parent.type === 'parenthesized_expression' || parent.type === 'await_expression') continue;
    if (parent.type === 'member_expression' && parent.parent?.type === 'call_expression') {
      parent = parent.parent;
      continue;
    }
    if (parent.type === 'expression_statement') return true;
    return parent.type === 'unary_expression' && parent.childForFieldName('operator')?.type === 'void';
  }
  return false;
}

/** The promise a chain starts from: `p.finally(f).catch(…)` → `p`. */
function chainRoot(call: SyntaxNode): SyntaxNode | undefined {
  let receiver = memberObject(calleeOf(call)!);
  while (
    receiver?.type === 'call_expression' &&
    /^(finally|then)$/.test(calleeOf(receiver)?.type === 'member_expression' ? (calleeOf(receiver)!.childForFieldName('property')?.text ?? '') : '')
  ) {
    receiver = memberObject(calleeOf(receiver)!);
  }
  return receiver;
}

/**
 * `p.catch(() => {})` only to silence an early rejection of a promise kept for later: awaited further
 * down, held in a field (`this.#endPromise.catch(() => undefined)`) or in a variable of an outer scope.
 */
function receiverKept(call: SyntaxNode): boolean {
  const receiver = chainRoot(call);
  if (receiver?.type === 'member_expression' && /^this\b/.test(receiver.text)) return true;
  if (receiver?.type !== 'identifier') return false;
  const fn = enclosingFunction(call);
  const scope = fn?.childForFieldName('body') ?? call.tree.rootNode;
  const name = receiver.text.replace(/[$]/g, '\\$');
  if (fn && !new RegExp(`\\b(?:const|let|var)\\s+${name}\\b|[(,]\\s*${name}\\s*[,):=]`).test(fn.text)) return true;
  const after = scope.text.slice(call.endIndex - scope.startIndex);
  return new RegExp(`(?:^|[^\\w$])${name}(?![\\w$])`).test(after);
}

function lineSpan(node: SyntaxNode): string {
  const start = node.startPosition.row + 1;
  const end = node.endPosition.row + 1;
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

export const emptyCatch = defineRule({
  kind: 'file',
  meta: {
    id: 'empty-catch',
    description: 'Empty catch blocks and empty promise rejection handlers that discard errors',
    category: 'runtime',
    // Demoted to info (issue 17): after the fixes, 4 of 8 panel findings held up; see the README.
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'An empty error handler turns a failure into silence: the operation did not happen, nothing is logged, and the ' +
        'program continues with missing or half-written state until something unrelated breaks far away from the cause.',
      suggestedAction:
        'Handle the error (retry, fall back, return an explicit result), log or report it, or let it propagate. When ' +
        'ignoring it is right, say why in a comment inside the handler.',
    },
  },
  create(context) {
    const { allowComments } = context.options;
    const where = (node: SyntaxNode) => {
      const symbol = enclosingSymbol(node);
      return { symbol, place: symbol ? titleSymbol(symbol) : baseName(context.file.path) };
    };
    const severityOf = (emptiness: Emptiness): Severity | undefined => {
      if (emptiness === 'empty') return 'info';
      return emptiness === 'commented' && !allowComments ? 'info' : undefined;
    };
    const visitor: Record<string, (node: SyntaxNode) => void> = {
      catch_clause(node) {
        const parameter = node.childForFieldName('parameter');
        if (parameter && INTENTIONAL_NAME.test(parameter.text)) return;
        const body = node.childForFieldName('body');
        let emptiness = blockEmptiness(body);
        if (emptiness === 'empty' && explainedOutside(node.parent)) emptiness = 'commented';
        const severity = severityOf(emptiness);
        if (!body || !severity || node.parent?.hasError) return;
        const tryBlock = node.parent?.childForFieldName('body');
        if (isFallbackProbe(tryBlock) || isCleanupTry(tryBlock)) return;
        const { symbol, place } = where(node);
        const binding = parameter ? `catch (${parameter.text})` : 'catch';
        context.report({
          node,
          title: `Empty ${binding} block swallows errors in ${place}`,
          description:
            `The \`${binding}\` block is empty${emptiness === 'commented' ? ' (with a comment)' : ''}: every exception thrown by the ` +
            `\`try\` block (${tryBlock ? lineSpan(tryBlock) : 'above'}) is discarded without a trace and execution continues as if it had succeeded.`,
          severity,
          confidence: 90,
          ...(symbol ? { symbol } : {}),
          data: { handler: 'catch-block', commented: emptiness === 'commented' },
        });
      },
    };
    if (/\.\s*(catch|then)\s*\(/.test(context.source)) {
      visitor.program = (root) => {
        for (const property of nodesAtMatches(root, context.source, HANDLER_CALL)) {
          const call = methodCallOf(property);
          if (!call || call.hasError) continue;
          const args = callArguments(call);
          const handler = property.text === 'catch' ? args[0] : args[1];
          if (!handler) continue;
          let emptiness = handlerEmptiness(handler);
          // `void reader.cancel().catch(() => undefined)`: `void` is the author's explicit "ignore this".
          if (emptiness === 'empty' && (commentNextTo(call) || discardedWithVoid(call))) emptiness = 'commented';
          const severity = severityOf(emptiness);
          if (!severity || !valueDiscarded(call) || receiverKept(call)) continue;
          // `connection.close().catch(() => {})`: a best-effort cleanup.
          const receiver = memberObject(calleeOf(call)!);
          if (receiver?.type === 'call_expression' && CLEANUP.test(calledName(receiver) ?? '')) continue;
          const { symbol, place } = where(call);
          context.report({
            node: handler,
            title: `Promise rejection swallowed by .${property.text}(${property.text === 'then' ? '…, ' : ''}${shortText(handler, 30)}) in ${place}`,
            description:
              `The rejection handler passed to \`.${property.text}()\` on ${lineSpan(handler)} does nothing, so when ` +
              `\`${memberObject(calleeOf(call)!)!.text.replace(/\s+/g, ' ').slice(0, 60)}\` rejects, the error is discarded and the chain resolves with \`undefined\`.`,
            severity,
            ...(symbol ? { symbol } : {}),
            data: { handler: property.text },
          });
        }
      };
    }
    return visitor;
  },
});
