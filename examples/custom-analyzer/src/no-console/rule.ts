// Flags `console.*` calls left in source files (tests and scripts may log).
import { defineRule } from '@codehealth/engine';
import { z } from 'zod';

const options = z
  .object({
    /** console methods that are allowed, e.g. ["error", "warn"]. */
    allow: z.array(z.string()).default([]),
  })
  .strict()
  .default({ allow: [] });

export const noConsole = defineRule({
  kind: 'file',
  meta: {
    id: 'no-console',
    description: 'console.* calls left in production source',
    category: 'code_smell',
    severity: 'low',
    options,
    confidence: 95,
    docs: {
      whyItMatters: 'Stray console output leaks internals into logs, costs time in hot paths and hides real log events in noise.',
      suggestedAction: 'Remove the call, or route the message through the application logger.',
    },
  },
  create(context) {
    return {
      call_expression(node) {
        const callee = node.childForFieldName('function');
        if (callee?.type !== 'member_expression') return;
        const object = callee.childForFieldName('object');
        const property = callee.childForFieldName('property');
        if (object?.text !== 'console' || !property) return;
        if (context.options.allow.includes(property.text)) return;
        context.report({
          node,
          title: `console.${property.text} call`,
          description: `console.${property.text}(...) is called in ${context.file.path}.`,
        });
      },
    };
  },
});
