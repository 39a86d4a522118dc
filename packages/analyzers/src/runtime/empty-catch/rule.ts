// Flags error handlers that discard the error: empty `catch` blocks and empty promise rejection
// handlers (`.catch(() => {})`), unless a comment or the binding's name says it is on purpose.
import { defineRule, type Severity, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { unwrapParentheses } from '../../shared/functions.js';
import { enclosingSymbol } from '../../shared/enclosing-symbol.js';
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

type Emptiness = 'empty' | 'returns' | 'commented' | undefined;

/**
 * `let x = fallback; try { x = compute(); } catch {}` and `try { mod = require('optional'); } catch {}`:
 * a single assignment or optional load whose failure leaves the value set before, on purpose.
 */
function isFallbackProbe(tryBlock: SyntaxNode | null | undefined): boolean {
  const statements = tryBlock ? codeChildren(tryBlock) : [];
  if (statements.length !== 1 || statements[0].type !== 'expression_statement') return false;
  const expression = codeChildren(statements[0])[0];
  return expression?.type === 'assignment_expression' || /\b(require|import)\s*\(/.test(statements[0].text);
}

/** An empty block, or one whose only statement is a bare `return;`. */
function blockEmptiness(block: SyntaxNode | null): Emptiness {
  if (block?.type !== 'statement_block') return undefined;
  const statements = codeChildren(block);
  const returns = statements.length === 1 && statements[0].type === 'return_statement' && codeChildren(statements[0]).length === 0;
  if (statements.length > 0 && !returns) return undefined;
  if (hasCommentChild(block) || statements.some(hasCommentChild)) return 'commented';
  return returns ? 'returns' : 'empty';
}

/** `() => {}`, `function () {}`, `() => undefined`, `() => void 0`, `noop`, `_.noop`. */
function handlerEmptiness(handler: SyntaxNode): Emptiness {
  const fn = unwrapParentheses(handler);
  if (fn.type === 'identifier' || fn.type === 'member_expression') {
    return /(^|\.)noop$/i.test(fn.text) ? 'empty' : undefined;
  }
  if (fn.type !== 'arrow_function' && fn.type !== 'function_expression') return undefined;
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  if (body.type === 'statement_block') return blockEmptiness(body);
  const value = unwrapParentheses(body);
  const discarded = value.type === 'undefined' || (value.type === 'identifier' && value.text === 'undefined') || (value.type === 'unary_expression' && value.childForFieldName('operator')?.type === 'void');
  return discarded ? 'empty' : undefined;
}

/**
 * True when the chain's value is thrown away (a statement, `await` as a statement, `void`). When it
 * is used instead (`const x = await p.catch(() => undefined)`), `undefined` is a fallback result that
 * the code goes on to check, the promise form of `try { … } catch { return undefined }`.
 */
function valueDiscarded(call: SyntaxNode): boolean {
  let node = call;
  for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
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

/** `p.catch(() => {})` only to silence an early rejection of a promise the function awaits later. */
function receiverUsedLater(call: SyntaxNode): boolean {
  const receiver = memberObject(calleeOf(call)!);
  if (receiver?.type !== 'identifier') return false;
  const scope = enclosingFunction(call)?.childForFieldName('body') ?? call.tree.rootNode;
  const after = scope.text.slice(call.endIndex - scope.startIndex);
  return new RegExp(`\\b${receiver.text}\\b`).test(after);
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
    severity: 'medium',
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
      if (emptiness === 'empty') return 'medium';
      // A bare `return;` is often a deliberate "give up quietly" guard; still worth a look.
      if (emptiness === 'returns') return 'low';
      return emptiness === 'commented' && !allowComments ? 'info' : undefined;
    };
    const visitor: Record<string, (node: SyntaxNode) => void> = {
      catch_clause(node) {
        const parameter = node.childForFieldName('parameter');
        if (parameter && INTENTIONAL_NAME.test(parameter.text)) return;
        const body = node.childForFieldName('body');
        const emptiness = blockEmptiness(body);
        const severity = severityOf(emptiness);
        if (!body || !severity || node.parent?.hasError) return;
        const tryBlock = node.parent?.childForFieldName('body');
        if (isFallbackProbe(tryBlock)) return;
        const { symbol, place } = where(node);
        const binding = parameter ? `catch (${parameter.text})` : 'catch';
        const action = codeChildren(body).length === 0 ? 'is empty' : 'only returns';
        context.report({
          node,
          title: `Empty ${binding} block swallows errors in ${place}`,
          description:
            `The \`${binding}\` block ${action}${emptiness === 'commented' ? ' (with a comment)' : ''}: every exception thrown by the ` +
            `\`try\` block (${tryBlock ? lineSpan(tryBlock) : 'above'}) is discarded without a trace and execution continues as if it had succeeded.`,
          severity,
          confidence: emptiness === 'returns' ? 70 : 90,
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
          const severity = severityOf(handlerEmptiness(handler));
          if (!severity || !valueDiscarded(call) || receiverUsedLater(call)) continue;
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
