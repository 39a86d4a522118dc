// Flags JSON.parse of non-literal input with no try/catch around it in the same function: malformed
// input then escapes as a SyntaxError instead of being handled where the input is read.
import { defineRule, type Severity, type SyntaxNode, enclosingSymbol, localFunctionName } from '@codehealth/engine/kit';
import { z } from 'zod';
import { callersCatch, catchingTry, chainHandlesCallback } from '../shared/guards.js';
import { nodesAtMatches } from '../shared/source-search.js';
import { baseName, callArguments, enclosingFunction, shortText, titleSymbol } from '../shared/syntax.js';
import { inputOrigin, type Origin } from './input-origin.js';

const options = z
  .object({
    /**
     * Also report files, the environment and storage (`external`), text of unknown origin, parameters
     * and files shipped with the module (medium/low).
     * Off by default: on the panel those were mostly JSON the application stored itself (database
     * columns it wrote with JSON.stringify, its own cache entries), SDK response parsers and stream
     * transforms whose throw is their error path.
     */
    allInputs: z.boolean().default(false),
  })
  .strict()
  .default({ allInputs: false });

const JSON_PARSE = /\bJSON\s*\.\s*parse\s*\(/g;

/**
 * Functions whose job is to parse, so that throwing on malformed text is their contract, as it is
 * for `Response.json()`: `json()`, `#parseJson`, `parse…`, `…Parse…` (`defaultParseResponse`), `decode…`, `deserialize…`, `readJson`, `fromJSON`, `unwrap`.
 */
const PARSING_FUNCTION = /^#?(?:json|\w*[Pp]arse(?:[A-Z]\w*)?|decode\w*|deserialize\w*|unserialize\w*|unwrap|(?:read|load|from)\w*(?:Json|JSON))$/;

/** Whether the parse sits in a function (or a callback of one) named for parsing. */
function inParsingFunction(call: SyntaxNode): boolean {
  for (let fn = enclosingFunction(call); fn; fn = enclosingFunction(fn)) {
    const name = localFunctionName(fn).split('.').pop() ?? '';
    if (PARSING_FUNCTION.test(name)) return true;
  }
  return false;
}

const SEVERITY: Record<Exclude<Origin, 'static'>, { severity: Severity; confidence: number; label: string }> = {
  network: { severity: 'high', confidence: 90, label: 'network input' },
  external: { severity: 'medium', confidence: 90, label: 'external input' },
  unknown: { severity: 'medium', confidence: 70, label: 'input' },
  delegated: { severity: 'low', confidence: 50, label: 'a parameter' },
  bundled: { severity: 'low', confidence: 50, label: 'a bundled file' },
};

export const unguardedJsonParse = defineRule({
  kind: 'file',
  meta: {
    id: 'unguarded-json-parse',
    description: 'JSON.parse of non-literal input without a try/catch in the same function, in production code',
    category: 'runtime',
    severity: 'medium',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    confidence: 70,
    options,
    docs: {
      whyItMatters:
        'JSON.parse throws a SyntaxError on malformed, truncated or empty input. Input from files, requests, messages or ' +
        'storage is malformed sooner or later; without a try/catch the exception escapes to code that knows nothing about ' +
        'the input, crashes the process or request, and the message rarely says which input was bad.',
      suggestedAction:
        'Wrap the parse in try/catch where the input is read and turn the failure into a clear error or a fallback (naming ' +
        'the source of the text), or use a safe-parse helper that returns a result instead of throwing.',
    },
  },
  create(context) {
    if (!context.source.includes('JSON')) return {};
    const { allInputs } = context.options;
    return {
      program(root) {
        for (const identifier of nodesAtMatches(root, context.source, JSON_PARSE)) {
          const member = identifier.parent;
          const call = member?.parent;
          if (identifier.type !== 'identifier' || member?.type !== 'member_expression' || call?.type !== 'call_expression') continue;
          if (call.childForFieldName('function')?.id !== member.id || call.hasError) continue;
          const [argument] = callArguments(call);
          if (!argument || argument.type === 'spread_element') continue;
          const { origin, what } = inputOrigin(argument);
          if (origin === 'static' || catchingTry(call) || inParsingFunction(call)) continue;
          if (!allInputs && origin !== 'network') continue;
          const fn = enclosingFunction(call);
          if (fn && (chainHandlesCallback(fn) || callersCatch(fn, root, context.source))) continue;
          const { severity, confidence, label } = SEVERITY[origin];
          const symbol = enclosingSymbol(call);
          const place = symbol ? titleSymbol(symbol) : baseName(context.file.path);
          const text = shortText(argument, 30);
          context.report({
            node: call,
            title: `JSON.parse(${text}) of ${label} without try/catch in ${place}`,
            description:
              `\`JSON.parse\` on line ${call.startPosition.row + 1} parses ${what ? `${what}` : `\`${text}\``} and no try/catch in ` +
              `${symbol ? `\`${symbol}\`` : 'the module code'} surrounds it, so malformed, truncated or empty input throws a ` +
              'SyntaxError out of this code instead of being handled here.',
            severity,
            confidence,
            ...(symbol ? { symbol } : {}),
            data: { input: origin },
          });
        }
      },
    };
  },
});
