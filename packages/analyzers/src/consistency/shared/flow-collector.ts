// Collects how source files write asynchronous code and handle errors: functions that await vs
// `.then()` chains, try/catch around awaits vs `.catch()`, plain `Error` vs Error subclasses.
// One collector for the three conventions, so the frequent call nodes are inspected once.
import { enclosingFunction, isFunctionNode } from '@codehealth/engine/kit';
import type { Collector, NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';

export const FLOW_COLLECTOR_ID = 'flow';
export const FLOW_PATTERNS = ['async-style', 'promise-error-handling', 'error-class'] as const;
export type FlowPattern = (typeof FLOW_PATTERNS)[number];

/**
 * `[value, line, subject, mixed]`; the subject is the thrown class for `error-class`, else empty.
 * `mixed` (async-style only): 1 when the enclosing function writes both styles — a `.then()` chain
 * in a function that is async or awaits, an await in a function that also chains `.then()`.
 */
export type FlowSample = [value: string, line: number, subject: string, mixed?: 0 | 1];
export type FlowFacts = Partial<Record<FlowPattern, FlowSample[]>>;

export const AWAIT = 'async/await';
export const THEN = '.then()';
export const TRY_CATCH = 'try/catch';
export const CATCH_CALL = '.catch()';
export const PLAIN_ERROR = 'plain Error';
export const ERROR_SUBCLASS = 'Error subclass';

// Built-in subclasses say what went wrong in the language's own terms; they are neither choice.
const BUILTIN_ERRORS = new Set(['TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError', 'DOMException']);
const ERROR_NAME = /(?:Error|Exception)$/;
const CHAIN_METHODS = new Set(['then', 'catch', 'finally']);

function memberCall(call: SyntaxNode): { object: SyntaxNode; method: string } | undefined {
  const callee = call.firstChild;
  if (callee?.type !== 'member_expression') return undefined;
  const property = callee.lastChild;
  const object = callee.firstChild;
  if (property?.type !== 'property_identifier' || !object) return undefined;
  return { object, method: property.text };
}

/**
 * Whether the chain ending in `call` (`a.then(f).catch(g)`) has a `.then()` link; a chain that
 * starts with a lazy `import('x')` is module loading, not an async style.
 */
function chainHasThen(call: SyntaxNode): boolean {
  let hasThen = false;
  let node: SyntaxNode | null = call;
  while (node?.type === 'call_expression') {
    const member = memberCall(node);
    if (!member || !CHAIN_METHODS.has(member.method)) return hasThen && node.firstChild?.type !== 'import';
    if (member.method === 'then') hasThen = true;
    node = member.object;
  }
  return hasThen;
}

function thrownClass(statement: SyntaxNode): string | undefined {
  const thrown = statement.firstNamedChild;
  if (!thrown) return undefined;
  if (thrown.type === 'new_expression') {
    const constructor = thrown.childForFieldName('constructor');
    if (constructor?.type === 'identifier') return constructor.text;
    if (constructor?.type === 'member_expression') return constructor.lastChild?.text;
    return undefined;
  }
  // `throw Error('x')` is the same plain Error without `new`.
  if (thrown.type === 'call_expression' && thrown.firstChild?.type === 'identifier' && thrown.firstChild.text === 'Error') return 'Error';
  return undefined;
}

/** `async function`, `async () =>`, `async method()`. */
function isAsync(fn: SyntaxNode): boolean {
  for (let i = 0; i < fn.childCount; i++) {
    const child = fn.child(i)!;
    if (child.type === 'async') return true;
    if (child.type === 'formal_parameters' || child.type === 'statement_block') return false;
  }
  return false;
}

const PROMISE_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);
const LOOPS: ReadonlySet<string> = new Set(['for_statement', 'for_in_statement', 'while_statement', 'do_statement']);

/**
 * Whether a `.catch(handler)` was written where try/catch around await was the alternative: on a
 * chain that is awaited or returned (the function could await it in a try instead). A fire-and-forget
 * `.catch()` — a statement of its own (`void p.catch(log)`, `p.then(resolve).catch(reject)` in a
 * promise executor, a registration nobody waits for) — is the natural form, not a style choice.
 */
function isChoiceOfCatch(call: SyntaxNode): boolean {
  // A thenable's own `catch`/`then` (a Promise subclass, an Observable) delegating to another's: the API, not a style.
  const fn = enclosingFunction(call);
  if (fn?.type === 'method_definition' && PROMISE_METHODS.has(fn.childForFieldName('name')?.text ?? '')) return false;
  let top = call;
  while (top.parent?.type === 'member_expression' && top.parent.parent?.type === 'call_expression') top = top.parent.parent;
  const parent = top.parent;
  return (
    parent?.type === 'await_expression' ||
    parent?.type === 'return_statement' ||
    (parent?.type === 'arrow_function' && parent.childForFieldName('body') === top)
  );
}

/** A try statement inside a loop of its own function: per-iteration handling (collect, continue) that a .catch() does not express. */
function isInLoop(node: SyntaxNode): boolean {
  for (let up = node.parent; up && !isFunctionNode(up); up = up.parent) if (LOOPS.has(up.type)) return true;
  return false;
}

export const flowCollector: Collector<FlowFacts> = {
  id: FLOW_COLLECTOR_ID,
  create({ file, source }) {
    const facts: FlowFacts = {};
    // Async-style samples wait for the end of the walk: whether their function mixes both styles
    // is known only once all of it has been seen.
    const styles: Array<{ value: string; node: SyntaxNode; owner: SyntaxNode | null; held?: boolean }> = [];
    let settled = false;
    const result = () => {
      if (settled) return facts;
      settled = true;
      const chaining = new Set<number>();
      for (const { value, owner } of styles) if (value === THEN && owner) chaining.add(owner.startIndex);
      for (const { value, node, owner, held } of styles) {
        const key = owner?.startIndex ?? -1;
        const mixed = value === THEN ? !held && (awaitingFunctions.has(key) || (owner !== null && isAsync(owner))) : chaining.has(key);
        (facts['async-style'] ??= []).push([value, node.startPosition.row + 1, '', mixed ? 1 : 0]);
      }
      return facts;
    };
    if (file.kind !== 'source') return { visitor: {}, result };
    // Calls are among the most frequent nodes: a file whose text has no `.then`/`.catch` is not
    // subscribed to them at all, and likewise for `await` and `throw`.
    const chains = /\.\s*(?:then|catch|finally)\b/.test(source);
    const awaits = /\bawait\b/.test(source);
    const throws = /\bthrow\b/.test(source);
    const add = (pattern: FlowPattern, value: string, node: SyntaxNode, subject = '') => {
      (facts[pattern] ??= []).push([value, node.startPosition.row + 1, subject]);
    };
    const awaitingFunctions = new Set<number>();
    const awaitingTries = new Set<number>();
    const visitor: NodeVisitor = {
      await_expression(node) {
        // Up to the enclosing function: it awaits, and so does every try block passed on the way.
        let up = node.parent;
        for (; up && !isFunctionNode(up) && up.type !== 'program'; up = up.parent) {
          if (up.type === 'statement_block' && up.parent?.type === 'try_statement') awaitingTries.add(up.parent.startIndex);
        }
        const owner = up?.startIndex ?? -1;
        if (!awaitingFunctions.has(owner)) {
          awaitingFunctions.add(owner);
          styles.push({ value: AWAIT, node, owner: up && up.type !== 'program' ? up : null });
        }
      },
      'try_statement:exit'(node) {
        if (awaitingTries.has(node.startIndex) && node.childForFieldName('handler') && !isInLoop(node)) add('promise-error-handling', TRY_CATCH, node);
      },
      call_expression(node) {
        const member = memberCall(node);
        if (!member || !CHAIN_METHODS.has(member.method)) return;
        if (member.method === 'catch' && node.lastChild?.namedChildCount && isChoiceOfCatch(node)) add('promise-error-handling', CATCH_CALL, node);
        // One sample per chain, taken at its last link.
        const parent = node.parent;
        if (parent?.type === 'member_expression' && CHAIN_METHODS.has(parent.lastChild?.text ?? '')) return;
        // `await p.then(f)` and `(x) => p.then(f)` are local transforms inside code of either style.
        if (parent?.type === 'await_expression' || parent?.type === 'arrow_function') return;
        // A chain kept as a value (an array element, an argument: `promises.push(p.then(f))`,
        // `Promise.race([p.then(f), timeout])`) is built to run alongside others: deliberate in either style.
        const held = parent?.type === 'array' || parent?.type === 'arguments';
        if (chainHasThen(node)) styles.push({ value: THEN, node, owner: enclosingFunction(node) ?? null, held });
      },
      throw_statement(node) {
        const name = thrownClass(node);
        if (!name || BUILTIN_ERRORS.has(name)) return;
        if (name === 'Error') add('error-class', PLAIN_ERROR, node, name);
        else if (ERROR_NAME.test(name)) add('error-class', ERROR_SUBCLASS, node, name);
      },
    };
    if (!chains) delete visitor.call_expression;
    if (!awaits) {
      delete visitor.await_expression;
      delete visitor['try_statement:exit'];
    }
    if (!throws) delete visitor.throw_statement;
    return { visitor, result };
  },
};
