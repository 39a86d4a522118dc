// Flags TypeScript non-null assertions (`!`) on results that are null or undefined in ordinary
// use: regex matches, DOM lookups, attributes, storage and process.env (and, when asked,
// collection lookups: Array.find, Map.get, pop/shift/at).
import { defineRule, enclosingSymbol } from '@codehealth/engine/kit';
import { z } from 'zod';
import { baseName, shortText, titleSymbol } from '../shared/syntax.js';
import { checkedFirst } from './checked-first.js';
import { assertedExpression, nullableApi } from './nullable-apis.js';

const options = z
  .object({
    /**
     * Also report lookups in collections the code fills itself (Map.get, find, pop, shift, at), as
     * `low`. Off by default: there the assertion usually records an invariant the code established
     * elsewhere (a registry filled before, a stack balanced by the parser), which syntax cannot see.
     */
    collections: z.boolean().default(false),
  })
  .strict()
  .default({ collections: false });

export const nonNullAssertionOnNullable = defineRule({
  kind: 'file',
  meta: {
    id: 'non-null-assertion-on-nullable',
    description: 'Non-null assertions on results that are commonly null or undefined',
    category: 'runtime',
    // Demoted to info (issue 17): on the panel most assertions recorded an invariant the code had just
    // established (an element it had just written, a token the regex had matched); see the README.
    severity: 'info',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    confidence: 80,
    options,
    languages: ['typescript', 'tsx'],
    docs: {
      whyItMatters:
        'A non-null assertion tells the compiler to stop checking; it does nothing at run time. When the lookup does come ' +
        'back empty, undefined flows on and the program fails later with "cannot read properties of undefined", far from ' +
        'the line that made the wrong assumption.',
      suggestedAction:
        'Handle the empty case where it happens: check the result and throw an error that says what was missing, return ' +
        'early, or fall back to a default (`?? defaultValue`).',
    },
  },
  create(context) {
    const { collections } = context.options;
    // tree-sitter may wrap one assertion twice (`x\n.match(re)!` in a chain): one finding per lookup.
    const seen = new Set<number>();
    return {
      non_null_expression(node) {
        const asserted = assertedExpression(node);
        const api = asserted && nullableApi(asserted);
        // Inside a parse error the shape may be the parser's guess, not the code's.
        if (!asserted || !api || node.parent?.hasError) return;
        if (api.collection && !collections) return;
        if (checkedFirst(node, api) || seen.has(asserted.startIndex)) return;
        seen.add(asserted.startIndex);
        const symbol = enclosingSymbol(node);
        const place = symbol ? titleSymbol(symbol) : baseName(context.file.path);
        const text = shortText(asserted, 40);
        context.report({
          node,
          title: `Non-null assertion on ${text} in ${place}`,
          description:
            `\`${text}!\` on line ${node.startPosition.row + 1} asserts that ${api.api} returned a value, but it returns ` +
            `${api.api === 'process.env' ? 'undefined' : 'null or undefined'} when ${api.nullWhen}; the assertion only silences ` +
            'the compiler, and the empty value fails later where it is used.',
          severity: 'info',
          confidence: api.confidence,
          ...(symbol ? { symbol } : {}),
          data: { api: api.api, tier: api.severity },
        });
      },
    };
  },
});
