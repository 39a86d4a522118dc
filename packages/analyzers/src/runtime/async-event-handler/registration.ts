// Where an async function is handed to code that ignores the promise it returns: event emitters,
// DOM listeners, JSX `on…` props, `on…` handler properties and timers.
import { parentSkippingParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';
import { callArguments, calleeOf, propertyName, shortText, stringLiteralValue } from '../shared/syntax.js';

export interface Registration {
  /** For titles: `'message' handler on ws`, `onClick handler`, `setTimeout callback`. */
  label: string;
  /** How it is registered, for the description: `ws.on('message', …)`. */
  how: string;
  /** The emitter is the Node.js process itself. */
  processLevel: boolean;
}

const LISTENER_METHODS: ReadonlySet<string> = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'addEventListener']);
const TIMERS: ReadonlySet<string> = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);

function fromCall(fn: SyntaxNode, call: SyntaxNode): Registration | undefined {
  const callee = calleeOf(call);
  if (!callee) return undefined;
  const args = callArguments(call);
  const position = args.findIndex((arg) => arg.startIndex <= fn.startIndex && arg.endIndex >= fn.endIndex);
  const method = callee.type === 'member_expression' ? propertyName(callee) : undefined;
  if (method && LISTENER_METHODS.has(method) && position >= 1) {
    const emitter = callee.childForFieldName('object')!;
    const event = args[0].type === 'string' ? stringLiteralValue(args[0]) : undefined;
    const eventLabel = event !== undefined ? `'${event}'` : shortText(args[0], 20);
    return {
      label: `${eventLabel} handler on ${shortText(emitter, 20)}`,
      how: `\`${shortText(emitter, 30)}.${method}(${eventLabel}, …)\``,
      processLevel: emitter.text === 'process',
    };
  }
  const timer = callee.type === 'identifier' ? callee.text : method;
  if (timer && TIMERS.has(timer) && position === 0) {
    return { label: `${timer} callback`, how: `\`${timer}(…)\``, processLevel: false };
  }
  return undefined;
}

/** How `fn` (an async arrow or function expression) is registered as a handler, if it is. */
export function registrationOf(fn: SyntaxNode): Registration | undefined {
  const holder = parentSkippingParentheses(fn);
  if (!holder) return undefined;
  if (holder.type === 'arguments' && holder.parent?.type === 'call_expression') return fromCall(fn, holder.parent);
  if (holder.type === 'jsx_expression' && holder.parent?.type === 'jsx_attribute') {
    const name = holder.parent.namedChildren[0]?.text ?? '';
    return /^on[A-Z]/.test(name) ? { label: `${name} handler`, how: `the JSX prop \`${name}\``, processLevel: false } : undefined;
  }
  if (holder.type === 'assignment_expression' && holder.childForFieldName('right')?.id === fn.id) {
    const target = holder.childForFieldName('left');
    const property = target?.type === 'member_expression' ? propertyName(target) : undefined;
    if (property && /^on[a-z]+$/.test(property)) {
      return { label: `${shortText(target!, 30)} handler`, how: `\`${shortText(target!, 30)} = …\``, processLevel: false };
    }
  }
  return undefined;
}
