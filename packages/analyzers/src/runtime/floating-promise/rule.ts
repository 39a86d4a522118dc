// Flags promises that are created as a statement and then dropped: no await, return, void or
// rejection handler (typescript-eslint's no-floating-promises, from syntax alone).
import { defineRule, type SyntaxNode, isFunctionNode, unwrapParentheses, enclosingSymbol } from '@codehealth/engine/kit';
import { z } from 'zod';
import { droppedParts } from '../shared/dropped-values.js';
import { handlesRejection } from '../shared/guards.js';
import { baseName, titleSymbol, calledMethod, calleeOf, isAsyncFunction, memberObject, shortText } from '../shared/syntax.js';
import { PROMISE_MODULE_NAMES, promiseSource, type PromiseSource, type SourceLookup } from './promise-sources.js';

/** Words without which a file cannot hold anything this rule recognises: such files cost nothing. */
const options = z
  .object({
    /**
     * Also report `.then(f)` chains on any receiver (`this.promise.then(…)`, `statePromise.then(…)`,
     * `Promise.resolve().then(…)`). Off by default: on the panel most such receivers never rejected.
     */
    anyThen: z.boolean().default(false),
  })
  .strict()
  .default({ anyThen: false });

const TRIGGER = /async|\.then|\.finally|Promise|fetch|promises/;

/** Some earlier link of a `.then`/`.catch` chain handles rejections. */
function chainHasHandler(receiver: SyntaxNode | undefined): boolean {
  for (let link = receiver && unwrapParentheses(receiver); link?.type === 'call_expression'; link = memberObject(calleeOf(link)!)) {
    if (handlesRejection(link)) return true;
    if (calleeOf(link)?.type !== 'member_expression') return false;
  }
  return false;
}

/**
 * Whether a `.then()` chain starts from a promise this rule recognises (a same-file async function,
 * fetch, fs/promises, Promise combinators, new Promise), not `Promise.resolve()` or an arbitrary value
 * (`this.promise`, `statePromise`, `pause()`), which on the panel mostly never rejected.
 */
function thenOfKnownSource(receiver: SyntaxNode, lookup: SourceLookup): boolean {
  let root = unwrapParentheses(receiver);
  while (root.type === 'call_expression' && /^(then|catch|finally)$/.test(calledMethod(root) ?? '')) root = unwrapParentheses(memberObject(calleeOf(root)!)!);
  if (/^Promise\s*\.\s*resolve\b/.test(root.text)) return false;
  return (root.type === 'call_expression' || root.type === 'new_expression') && promiseSource(root, lookup) !== undefined;
}

/** Why the dropped value of `part` is a promise whose rejection nobody handles, if it is one. */
function floatingSource(part: SyntaxNode, lookup: SourceLookup, anyThen: boolean): PromiseSource | undefined {
  if (part.type === 'call_expression') {
    if (handlesRejection(part)) return undefined;
    const method = calledMethod(part);
    const receiver = method && memberObject(calleeOf(part)!);
    if (method === 'then' && receiver) {
      if (!anyThen && !thenOfKnownSource(receiver, lookup)) return undefined;
      const earlier = chainHasHandler(receiver);
      return {
        label: `${shortText(receiver)}.then()`,
        reason: earlier
          ? "`.then()` after the chain's rejection handler returns a new promise that rejects when its callback throws"
          : '`.then()` with only a fulfilment callback returns a new promise that rejects when the receiver or the callback does',
        confidence: earlier ? 70 : 85,
      };
    }
    if (method === 'finally' && receiver) {
      const inner = unwrapParentheses(receiver);
      if (inner.type === 'call_expression' && handlesRejection(inner)) return undefined;
      const source = promiseSource(inner, lookup);
      return source && { ...source, label: `${source.label}.finally()`, reason: `${source.reason}; \`.finally()\` passes its rejection on` };
    }
  }
  return promiseSource(part, lookup);
}

/** A file that says it is generated and must not be edited (msw's public/mockServiceWorker.js): the fix belongs to its generator. */
const GENERATED_COPY = /\bdo not (?:modify|edit) this file\b/i;

/** `Promise.reject(error);` as a statement exists only to raise an unhandled rejection on purpose (OpenAI's EventStream). */
function isDeliberateRejection(part: SyntaxNode): boolean {
  const call = unwrapParentheses(part);
  return call.type === 'call_expression' && calleeOf(call)?.text === 'Promise.reject';
}

/** Whether `node` runs in module code, outside any function (`main();` at the end of a script). */
function atModuleLevel(node: SyntaxNode): boolean {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current) || current.type === 'class_body') return false;
  return true;
}

/**
 * A script's entry call: `main()`, `run().then(report)`, `(async () => { … })()` — a same-file async
 * function called by its bare name, or an async IIFE, possibly followed by `.then`/`.finally`.
 */
function isEntryCall(part: SyntaxNode, asyncNames: ReadonlySet<string>): boolean {
  let call = unwrapParentheses(part);
  // `worker.start().then(render)`: in module code the continuation waits in the callback, and a
  // rejection reaches the top level as a thrown error would.
  if (call.type === 'call_expression' && /^(then|finally)$/.test(calledMethod(call) ?? '')) return true;
  while (call.type === 'call_expression' && /^(then|finally)$/.test(calledMethod(call) ?? '')) call = unwrapParentheses(memberObject(calleeOf(call)!)!);
  if (call.type !== 'call_expression') return false;
  const callee = unwrapParentheses(call.childForFieldName('function') ?? call);
  return (callee.type === 'identifier' && asyncNames.has(callee.text)) || isFunctionNode(callee);
}

/** The name an `async` keyword's function is called by, for the cheap pre-filter of candidates. */
function asyncName(fn: SyntaxNode): string | undefined {
  if (fn.type === 'function_declaration' || fn.type === 'method_definition') return fn.childForFieldName('name')?.text.replace(/^['"]|['"]$/g, '');
  const holder = fn.parent;
  if (holder?.type === 'variable_declarator') return holder.childForFieldName('name')?.text;
  if (holder?.type === 'public_field_definition') return holder.childForFieldName('name')?.text;
  if (holder?.type === 'pair') return holder.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
  return undefined;
}

export const floatingPromise = defineRule({
  kind: 'file',
  meta: {
    id: 'floating-promise',
    description: 'Promises created as a statement and dropped without await, return, void or a rejection handler',
    category: 'runtime',
    // Demoted to info (issue 17): 12 of 14 panel findings held up after narrowing (86 %), under the 90 % bar.
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    confidence: 85,
    options,
    docs: {
      whyItMatters:
        'A promise nobody awaits or handles fails silently: its rejection becomes an unhandled rejection, which terminates ' +
        'Node.js 15+ processes and is only logged in browsers, and the code after the call runs before the work is done, ' +
        'so it may read state that is not written yet.',
      suggestedAction:
        'await the promise (or return it) so failures reach the caller; if running in the background is intended, attach ' +
        'a `.catch()` that logs or reports the error, and mark deliberate fire-and-forget calls with `void`.',
    },
  },
  create(context) {
    const { anyThen } = context.options;
    if (!TRIGGER.test(context.source) || GENERATED_COPY.test(context.source.slice(0, 600))) return {};
    const asyncNames = new Set<string>();
    const candidates: SyntaxNode[] = [];
    return {
      async(node) {
        const fn = node.parent;
        if (!fn || !isFunctionNode(fn) || !isAsyncFunction(fn)) return;
        const name = asyncName(fn);
        if (name) asyncNames.add(name);
      },
      expression_statement(node) {
        candidates.push(node);
      },
      'program:exit'() {
        const mentionsPromisesModule = context.source.includes('promises');
        const lookup: SourceLookup = { asyncNames, mentionsPromisesModule };
        // Words one of which a statement must contain to hold a recognisable promise: a cheap text
        // test first, so that the syntax of ordinary statements is never inspected.
        const words = ['then', 'finally', 'Promise', 'fetch', 'async', ...asyncNames, ...(mentionsPromisesModule ? PROMISE_MODULE_NAMES : [])];
        const worth = new RegExp(`\\b(?:${words.map((w) => w.replace(/\$/g, '\\$')).join('|')})\\b`);
        for (const statement of candidates) {
          if (!worth.test(context.source.slice(statement.startIndex, statement.endIndex))) continue;
          const expression = statement.firstNamedChild;
          if (!expression || statement.hasError) continue;
          const moduleLevel = atModuleLevel(statement);
          for (const part of droppedParts(expression)) {
            // `main();` / `(async () => { … })();` in module code: a rejection there ends the process (Node 15+)
            // or reaches the console (browsers) with its stack, exactly as an error thrown at the top level
            // would; there is no caller to hand it to.
            if ((moduleLevel && isEntryCall(part, asyncNames)) || isDeliberateRejection(part)) continue;
            const source = floatingSource(part, lookup, anyThen);
            if (!source) continue;
            const symbol = enclosingSymbol(part);
            const where = symbol ? titleSymbol(symbol) : baseName(context.file.path);
            context.report({
              node: part,
              title: `Unhandled promise from ${source.label} in ${where}`,
              description:
                `${source.reason}. The statement on line ${part.startPosition.row + 1}${symbol ? ` in \`${symbol}\`` : ''} drops it without ` +
                '`await`, `return`, `void` or a rejection handler: a rejection becomes an unhandled rejection and the code that ' +
                'follows runs before the work has finished.',
              confidence: source.confidence,
              ...(symbol ? { symbol } : {}),
              data: { promise: source.label },
            });
          }
        }
      },
    };
  },
});
