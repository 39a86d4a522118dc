// Where the text given to JSON.parse comes from, as far as the syntax shows: a network payload,
// another external source (files, argv, environment, browser storage) or something unknown.
import { unwrapParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';
import { resolveName } from '../shared/scope.js';
import { calledMethod, calleeOf, isStaticTemplate, memberObject, propertyName } from '../shared/syntax.js';

/**
 * `delegated`: the text is a parameter, so the caller owns it and may guard the call; `bundled`: a
 * file read relative to the module itself (`import.meta.url`, `__dirname`), shipped with the code.
 */
export type Origin = 'static' | 'network' | 'external' | 'unknown' | 'delegated' | 'bundled';

export interface InputOrigin {
  origin: Origin;
  /** What the input is, for the description: `the request body`, `a file read with readFileSync`. */
  what?: string;
}

const EVENT_NAMES = /^(event|evt|ev|e|message|msg)$/;
const REQUEST_OBJECTS = /(^|\.)(req|request)$/;
const FILE_READS = /^(readFileSync|readFile)$/;
const STORAGE = /^(localStorage|sessionStorage|window\.localStorage|window\.sessionStorage)$/;
/** Wrappers that pass the text through: `String(x)`, `x.toString()`, `x as string`, `x!`, `x ?? '{}'`. */
const PASS_THROUGH = new Set(['await_expression', 'as_expression', 'satisfies_expression', 'non_null_expression', 'type_assertion']);

function unwrapInput(node: SyntaxNode): SyntaxNode {
  let current = unwrapParentheses(node);
  for (;;) {
    if (PASS_THROUGH.has(current.type)) {
      const inner = current.type === 'type_assertion' ? current.namedChildren[current.namedChildren.length - 1] : current.namedChildren[0];
      if (!inner) return current;
      current = unwrapParentheses(inner);
    } else if (current.type === 'call_expression' && (calledMethod(current) === 'toString' || calleeOf(current)?.text === 'String')) {
      const inner = calledMethod(current) === 'toString' ? memberObject(calleeOf(current)!) : current.childForFieldName('arguments')?.namedChildren[0];
      if (!inner) return current;
      current = unwrapParentheses(inner);
    } else if (current.type === 'binary_expression' && ['??', '||'].includes(current.childForFieldName('operator')?.type ?? '')) {
      current = unwrapParentheses(current.childForFieldName('left')!);
    } else return current;
  }
}

function originOfCall(call: SyntaxNode): InputOrigin | undefined {
  const callee = calleeOf(call);
  if (!callee) return undefined;
  const name = callee.type === 'identifier' ? callee.text : propertyName(callee);
  if (name === 'stringify' && callee.text === 'JSON.stringify') return { origin: 'static' };
  if (name && FILE_READS.test(name)) {
    const path = call.childForFieldName('arguments')?.namedChildren[0]?.text ?? '';
    // The project's own manifest: npm refuses to work with a malformed one long before this runs.
    if (/package\.json['"`]?\s*\)?$|['"`]package\.json['"`]|PackageJson|packageJson|pkgJson|pkgPath/.test(path)) return { origin: 'static' };
    if (/import\.meta\.(url|dirname)|__dirname/.test(path)) return { origin: 'bundled', what: `a file of the module itself read with ${name}` };
    return { origin: 'external', what: `a file read with ${name}` };
  }
  if (name === 'getItem' && STORAGE.test(memberObject(callee)?.text ?? '')) return { origin: 'external', what: `browser storage (${callee.text})` };
  if (name === 'text' && callee.type === 'member_expression') return { origin: 'network', what: `a response body (${callee.text}())` };
  return undefined;
}

function originOfMember(member: SyntaxNode): InputOrigin | undefined {
  const object = memberObject(member);
  const property = propertyName(member);
  if (!object) return undefined;
  if (object.text === 'process.env') return { origin: 'external', what: `the environment variable ${member.text}` };
  if (object.text === 'process.argv') return { origin: 'external', what: 'a command-line argument' };
  if (property === 'body' && REQUEST_OBJECTS.test(object.text)) return { origin: 'network', what: `the request body (${member.text})` };
  if (property === 'data' && EVENT_NAMES.test(object.text)) return { origin: 'network', what: `a message payload (${member.text})` };
  if (property === 'responseText') return { origin: 'network', what: `a response body (${member.text})` };
  return undefined;
}

/** Classifies the argument of `JSON.parse`, following `const` and `let` initializers up to `depth` times. */
export function inputOrigin(argument: SyntaxNode, depth = 2): InputOrigin {
  const input = unwrapInput(argument);
  if (input.type === 'string' || isStaticTemplate(input)) return { origin: 'static' };
  if (input.type === 'call_expression') return originOfCall(input) ?? { origin: 'unknown' };
  if (input.type === 'member_expression' || input.type === 'subscript_expression') return originOfMember(input) ?? { origin: 'unknown' };
  if (input.type === 'identifier' && depth > 0) {
    const binding = resolveName(input.text, input);
    // A constant the build or platform injects (`declare const __STATIC_CONTENT_MANIFEST: string`).
    if (/^_*[A-Z][A-Z0-9_]*$/.test(input.text) && (!binding || !binding.value)) return { origin: 'static' };
    if (binding?.kind === 'parameter') return { origin: 'delegated', what: `the parameter \`${input.text}\`` };
    if (binding && (binding.kind === 'const' || binding.kind === 'let') && binding.value) {
      const origin = inputOrigin(binding.value, depth - 1);
      // A static initializer of a `let` may have been replaced since.
      if (origin.origin !== 'static' || binding.kind === 'const') return origin;
    }
  }
  return { origin: 'unknown' };
}
