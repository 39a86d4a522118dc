// Flags control flow nested deeper than allowed inside one function (ESLint's max-depth idea).
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { FUNCTION_TYPES } from '../../shared/functions.js';
import { severityForExcess } from '../../shared/severity.js';
import { createFunctionScope, mergeVisitors } from '../../shared/visitors.js';

const DEFAULT_MAX = 4;

const options = z
  .object({ max: z.number().int().positive().default(DEFAULT_MAX) })
  .strict()
  .default({ max: DEFAULT_MAX });

/** Statements that open a nesting level; `else if` continues its `if` instead. */
const NESTING_TYPES = [
  'if_statement',
  'for_statement',
  'for_in_statement',
  'while_statement',
  'do_statement',
  'switch_statement',
  'try_statement',
  'with_statement',
] as const;

function opensLevel(node: SyntaxNode): boolean {
  return !(node.type === 'if_statement' && node.parent?.type === 'else_clause');
}

interface TooDeep {
  node: SyntaxNode;
  /** The deepest level reached inside `node` by the same function. */
  deepest: number;
  /** Index of the function in `depths` that `node` belongs to. */
  frame: number;
  symbol: string | undefined;
}

export const deepNesting = defineRule({
  kind: 'file',
  meta: {
    id: 'deep-nesting',
    description: 'Control flow nested deeper than allowed',
    category: 'code_smell',
    severity: 'medium',
    metric: { values: ['depth'] },
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'Each level of nesting is one more condition a reader has to keep in mind to know when a line runs. ' +
        'Past a few levels the conditions stop fitting in working memory and edge cases get missed.',
      suggestedAction:
        'Return or continue early for the exceptional cases, invert conditions to flatten them, and extract the ' +
        'innermost blocks into functions with names that say what they do.',
    },
  },
  create(context) {
    const { max } = context.options;
    const scope = createFunctionScope();
    // Depth per function: a nested function starts again at zero, as in ESLint's max-depth.
    const depths: number[] = [0];
    const open: TooDeep[] = [];
    const own: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of FUNCTION_TYPES) {
      own[type] = () => depths.push(0);
      own[`${type}:exit`] = () => depths.pop();
    }
    for (const type of NESTING_TYPES) {
      own[type] = (node) => {
        if (!opensLevel(node)) return;
        const frame = depths.length - 1;
        const depth = ++depths[frame];
        const innermost = open[open.length - 1];
        if (depth === max + 1) open.push({ node, deepest: depth, frame, symbol: scope.current() });
        else if (innermost?.frame === frame && depth > innermost.deepest) innermost.deepest = depth;
      };
      own[`${type}:exit`] = (node) => {
        if (!opensLevel(node)) return;
        depths[depths.length - 1]--;
        const innermost = open[open.length - 1];
        if (innermost?.node.id !== node.id) return;
        open.pop();
        const where = innermost.symbol ? `in ${innermost.symbol}` : 'at module level';
        context.report({
          node,
          title: `Control flow nested ${innermost.deepest} levels deep ${where} (max ${max})`,
          description: `This ${node.type.replace(/_/g, ' ')} opens nesting level ${max + 1} ${where}, and the code inside it reaches level ${innermost.deepest}; at most ${max} levels are allowed.`,
          severity: severityForExcess(innermost.deepest, max),
          ...(innermost.symbol ? { symbol: innermost.symbol } : {}),
          data: { depth: innermost.deepest, max },
        });
      };
    }
    return mergeVisitors(scope.visitor, own);
  },
});
