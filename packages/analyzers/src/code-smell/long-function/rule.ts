// Flags functions whose body has more lines of code than allowed (blank and comment lines excluded).
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCodeLineCollector } from '../../shared/code-lines.js';
import { FUNCTION_TYPES } from '../../shared/functions.js';
import { severityForExcess } from '../../shared/severity.js';
import { createFunctionScope, mergeVisitors } from '../../shared/visitors.js';

const DEFAULT_MAX = 80;

const options = z
  .object({ max: z.number().int().positive().default(DEFAULT_MAX) })
  .strict()
  .default({ max: DEFAULT_MAX });

export const longFunction = defineRule({
  kind: 'file',
  meta: {
    id: 'long-function',
    description: 'Functions whose body has more lines of code than allowed',
    category: 'code_smell',
    severity: 'medium',
    metric: { values: ['lines'], ofAnchor: true },
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'A long function does several things at once: it cannot be read in one screen, its parts cannot be tested ' +
        'alone, and every change risks touching behaviour the author did not mean to change.',
      suggestedAction:
        'Split the function along its steps: extract each block that has its own purpose into a named function, ' +
        'and keep the original as a short sequence of calls.',
    },
  },
  create(context) {
    const { max } = context.options;
    const scope = createFunctionScope();
    const lines = createCodeLineCollector(context.source);
    const functions: Array<{ node: SyntaxNode; name: string }> = [];
    const own: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of FUNCTION_TYPES) {
      own[type] = (node) => functions.push({ node, name: scope.current()! });
    }
    // Counting waits for the end of the walk, when every comment of the file has been seen.
    own['program:exit'] = () => {
      const codeLines = lines.codeLines();
      for (const { node, name } of functions) {
        const body = node.childForFieldName('body');
        if (!body) continue;
        const count = codeLines.between(body.startPosition.row, body.endPosition.row);
        if (count <= max) continue;
        context.report({
          node,
          title: `${name} has ${count} lines of code (max ${max})`,
          description: `The body of ${name} spans ${count} lines of code, not counting blank and comment lines; at most ${max} are allowed.`,
          severity: severityForExcess(count, max),
          symbol: name,
          data: { lines: count, max },
        });
      }
    };
    return mergeVisitors(scope.visitor, lines.visitor, own);
  },
});
