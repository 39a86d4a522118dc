// Flags functions whose body has more lines of code than allowed (blank and comment lines excluded).
import { defineRule, type SyntaxNode, FUNCTION_NODE_TYPES } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCodeLineCollector } from '../../shared/code-lines.js';
import { severityForExcess } from '../../shared/severity.js';
import { createFunctionScope, mergeVisitors } from '../../shared/visitors.js';
import { isMinified, MAINTAINED_ROLES } from '../shared/roles.js';

const DEFAULT_MAX = 80;
/** Nested functions that are statements of their own, whose every line is theirs. */
const DECLARATIONS: ReadonlySet<string> = new Set(['function_declaration', 'generator_function_declaration', 'method_definition']);

/** A function defined as a named helper: a declaration, a method, or `const name = () => …`. */
function isHelper(fn: SyntaxNode): boolean {
  return DECLARATIONS.has(fn.type) || fn.parent?.type === 'variable_declarator';
}

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
    roles: MAINTAINED_ROLES,
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
    if (isMinified(context.source)) return {};
    const { max } = context.options;
    const scope = createFunctionScope();
    const lines = createCodeLineCollector(context.source);
    // In walk order (a parent before the functions it contains), with the index of the parent.
    const functions: Array<{ node: SyntaxNode; name: string; parent: number }> = [];
    const open: number[] = [];
    const own: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of FUNCTION_NODE_TYPES) {
      own[type] = (node) => {
        open.push(functions.length);
        functions.push({ node, name: scope.current()!, parent: open.length > 1 ? open[open.length - 2] : -1 });
      };
      own[`${type}:exit`] = () => void open.pop();
    }
    // Counting waits for the end of the walk, when every comment of the file has been seen.
    own['program:exit'] = () => {
      const codeLines = lines.codeLines();
      // Lines of the functions nested in each function: its count leaves them out.
      const excluded = new Array<number>(functions.length).fill(0);
      const found: Array<{ node: SyntaxNode; name: string; count: number }> = [];
      // Innermost first: a function is decided before the one that contains it.
      for (let i = functions.length - 1; i >= 0; i--) {
        const { node, name, parent } = functions[i];
        const body = node.childForFieldName('body');
        if (!body) continue;
        const first = body.startPosition.row;
        const last = body.endPosition.row;
        const count = codeLines.between(first, last) - excluded[i];
        if (count > max) found.push({ node, name, count });
        if (parent < 0) continue;
        // A helper defined inside (a declaration, a method, a function bound to a name) is measured on
        // its own and is not its parent's code. An inline callback stays part of its parent (a long
        // component with its event handlers and `map` callbacks is long) unless it is reported itself;
        // then all but the lines it shares with the parent (`run(() => {`, `});`) are left out.
        if (isHelper(node)) excluded[parent] += codeLines.between(node.startPosition.row, last);
        else if (count > max) excluded[parent] += last - first > 1 ? codeLines.between(first + 1, last - 1) : 0;
        else excluded[parent] += excluded[i];
      }
      for (const { node, name, count } of found.reverse()) {
        context.report({
          node,
          title: `${name} has ${count} lines of code (max ${max})`,
          description: `The body of ${name} spans ${count} lines of code, not counting blank and comment lines, nor the functions nested in it (measured on their own); at most ${max} are allowed.`,
          severity: severityForExcess(count, max),
          symbol: name,
          data: { lines: count, max },
        });
      }
    };
    return mergeVisitors(scope.visitor, lines.visitor, own);
  },
});
