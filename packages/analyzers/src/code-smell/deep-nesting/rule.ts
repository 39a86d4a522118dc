// Flags control flow nested deeper than allowed inside one function (ESLint's max-depth idea).
import { defineRule, type SyntaxNode, FUNCTION_NODE_TYPES } from '@codehealth/engine/kit';
import { z } from 'zod';
import { severityForExcess } from '../../shared/severity.js';
import { createFunctionScope, mergeVisitors } from '../../shared/visitors.js';
import { isMinified, MAINTAINED_ROLES } from '../shared/roles.js';

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
  symbol: string | undefined;
}

/** One function's (or the module's) nesting: its depth now, the region open past the limit, the worst so far. */
interface Frame {
  depth: number;
  open?: TooDeep;
  worst?: TooDeep;
  regions: number;
}

export const deepNesting = defineRule({
  kind: 'file',
  meta: {
    id: 'deep-nesting',
    description: 'Control flow nested deeper than allowed',
    category: 'code_smell',
    severity: 'medium',
    roles: MAINTAINED_ROLES,
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
    if (isMinified(context.source)) return {};
    const { max } = context.options;
    const scope = createFunctionScope();
    // One frame per function: a nested function starts again at zero, as in ESLint's max-depth, so
    // its statements are not part of its parent's depth, and it gets its own finding.
    const frames: Frame[] = [{ depth: 0, regions: 0 }];
    const report = (frame: Frame): void => {
      const worst = frame.worst;
      if (!worst) return;
      const { node, deepest, symbol } = worst;
      const where = symbol ? `in ${symbol}` : 'at module level';
      const others = frame.regions - 1;
      context.report({
        node,
        title: `Control flow nested ${deepest} levels deep ${where} (max ${max})`,
        description:
          `This ${node.type.replace(/_/g, ' ')} opens nesting level ${max + 1} ${where}, and the code inside it reaches level ${deepest}; at most ${max} levels are allowed.` +
          (others > 0
            ? ` ${others} other ${others === 1 ? 'place' : 'places'} in the same ${symbol ? 'function' : 'module code'} also go${others === 1 ? 'es' : ''} past ${max} levels.`
            : ''),
        severity: severityForExcess(deepest, max),
        ...(symbol ? { symbol } : {}),
        data: { depth: deepest, max, regions: frame.regions },
      });
    };
    const own: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of FUNCTION_NODE_TYPES) {
      own[type] = () => frames.push({ depth: 0, regions: 0 });
      own[`${type}:exit`] = () => report(frames.pop()!);
    }
    own['program:exit'] = () => report(frames[0]);
    for (const type of NESTING_TYPES) {
      own[type] = (node) => {
        if (!opensLevel(node)) return;
        const frame = frames[frames.length - 1];
        const depth = ++frame.depth;
        if (depth === max + 1) {
          frame.open = { node, deepest: depth, symbol: scope.current() };
          frame.regions++;
        } else if (frame.open && depth > frame.open.deepest) {
          frame.open.deepest = depth;
        }
      };
      own[`${type}:exit`] = (node) => {
        if (!opensLevel(node)) return;
        const frame = frames[frames.length - 1];
        frame.depth--;
        const open = frame.open;
        if (open?.node.id !== node.id) return;
        frame.open = undefined;
        // The deepest region stands for the function; the first of equally deep ones.
        if (!frame.worst || open.deepest > frame.worst.deepest) frame.worst = open;
      };
    }
    return mergeVisitors(scope.visitor, own);
  },
});
