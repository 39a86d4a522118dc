// Flags functions that declare more parameters than allowed.
import { defineRule, type SyntaxNode, FUNCTION_NODE_TYPES } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createFunctionScope, mergeVisitors } from '../../shared/visitors.js';
import { isMinified, MAINTAINED_ROLES } from '../shared/roles.js';

const DEFAULT_MAX = 5;

const options = z
  .object({ max: z.number().int().nonnegative().default(DEFAULT_MAX) })
  .strict()
  .default({ max: DEFAULT_MAX });

/** TypeScript's `this: T` only types the receiver; callers never pass it. */
function isThisParameter(parameter: SyntaxNode): boolean {
  return parameter.childForFieldName('pattern')?.type === 'this';
}

/** A destructured parameter (`{ a, b }: Options`) is one argument at the call site, so it counts once. */
function parametersOf(fn: SyntaxNode): SyntaxNode[] {
  const list = fn.childForFieldName('parameters');
  if (!list) {
    const single = fn.childForFieldName('parameter');
    return single ? [single] : [];
  }
  return list.namedChildren.filter((child) => child.type !== 'comment' && !isThisParameter(child));
}

/** `private readonly http: HttpClient`, `@Inject(TOKEN) config: Config`: a parameter a DI container fills. */
function isInjected(parameter: SyntaxNode): boolean {
  return parameter.children.some((child) => child.type === 'accessibility_modifier' || child.type === 'readonly' || child.type === 'decorator');
}

/**
 * A constructor whose every parameter is a parameter property or decorated is filled by a
 * dependency-injection container (Angular, NestJS, tsyringe, InversifyJS): nobody writes its calls,
 * so there is no argument order to get wrong, and the list is the class's dependencies.
 */
function isInjectionConstructor(fn: SyntaxNode, parameters: readonly SyntaxNode[]): boolean {
  return fn.type === 'method_definition' && fn.childForFieldName('name')?.text === 'constructor' && parameters.every(isInjected);
}

export const tooManyParameters = defineRule({
  kind: 'file',
  meta: {
    id: 'too-many-parameters',
    description: 'Functions that declare more parameters than allowed',
    category: 'code_smell',
    severity: 'info',
    roles: MAINTAINED_ROLES,
    metric: { values: ['parameters'] },
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'Every call of a function with many parameters has to pass them in the right order, and positional ' +
        'arguments of the same type are easy to swap without any error. Many parameters also suggest the function ' +
        'does more than one thing.',
      suggestedAction:
        'Group parameters that travel together into an options object or a type, or split the function so that ' + 'each part needs fewer inputs.',
    },
  },
  create(context) {
    if (isMinified(context.source)) return {};
    const { max } = context.options;
    const scope = createFunctionScope();
    const own: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of FUNCTION_NODE_TYPES) {
      own[type] = (node) => {
        const parameters = parametersOf(node);
        if (parameters.length <= max || isInjectionConstructor(node, parameters)) return;
        const name = scope.current()!;
        context.report({
          node: node.childForFieldName('parameters') ?? node,
          title: `${name} takes ${parameters.length} parameters (max ${max})`,
          description: `${name} declares ${parameters.length} parameters; at most ${max} are allowed. A destructured object counts as one and a TypeScript \`this\` parameter not at all.`,
          severity: 'info',
          symbol: name,
          data: { parameters: parameters.length, max },
        });
      };
    }
    return mergeVisitors(scope.visitor, own);
  },
});
