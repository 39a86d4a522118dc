// Flags files with more lines of code than allowed (blank and comment lines excluded).
import { defineRule } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCodeLineCollector } from '../../shared/code-lines.js';
import { mergeVisitors } from '../../shared/visitors.js';
import { isMinified, MAINTAINED_ROLES } from '../shared/roles.js';

const DEFAULT_MAX = 800;

const options = z
  .object({ max: z.number().int().positive().default(DEFAULT_MAX) })
  .strict()
  .default({ max: DEFAULT_MAX });

export const oversizedFile = defineRule({
  kind: 'file',
  meta: {
    id: 'oversized-file',
    description: 'Files with more lines of code than allowed',
    category: 'code_smell',
    severity: 'info',
    roles: MAINTAINED_ROLES,
    metric: { values: ['lines'] },
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'A very large file usually holds several responsibilities: it is hard to navigate, attracts merge ' +
        'conflicts because everyone edits it, and hides which parts depend on which.',
      suggestedAction:
        'Move each cohesive group of declarations (a class, a feature, a set of helpers) into its own module and ' +
        're-export from the original path if callers rely on it.',
    },
  },
  create(context) {
    if (isMinified(context.source)) return {};
    const { max } = context.options;
    const lines = createCodeLineCollector(context.source);
    return mergeVisitors(lines.visitor, {
      'program:exit': () => {
        const count = lines.codeLines().total;
        if (count <= max) return;
        context.report({
          lineStart: 1,
          title: `File has ${count} lines of code (max ${max})`,
          description: `${context.file.path} has ${count} lines of code, not counting blank and comment lines; at most ${max} are allowed.`,
          severity: 'info',
          data: { lines: count, max },
        });
      },
    });
  },
});
