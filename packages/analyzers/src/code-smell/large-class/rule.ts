// Flags classes with too many methods or too many lines of code.
import { CLASS_NODE_TYPES, defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCodeLineCollector } from '../../shared/code-lines.js';
import { mergeVisitors } from '../../shared/visitors.js';
import { isMinified, MAINTAINED_ROLES } from '../shared/roles.js';

const DEFAULTS = { maxMethods: 20, maxLines: 500 };

const options = z
  .object({
    maxMethods: z.number().int().positive().default(DEFAULTS.maxMethods),
    maxLines: z.number().int().positive().default(DEFAULTS.maxLines),
  })
  .strict()
  .default(DEFAULTS);

const FUNCTION_VALUES: ReadonlySet<string> = new Set(['arrow_function', 'function_expression', 'generator_function']);

/**
 * Methods a class declares: method definitions (a getter and setter pair counts once), abstract
 * methods, and fields holding a function. The constructor and overload signatures do not count.
 */
export function countMethods(body: SyntaxNode | null): number {
  const names = new Set<string>();
  let count = 0;
  for (const member of body?.namedChildren ?? []) {
    const type = member.type;
    const name = member.childForFieldName('name')?.text ?? '';
    if (type === 'method_definition') {
      if (name === 'constructor') continue;
      const accessor = member.children.find((child) => child.type === 'get' || child.type === 'set');
      if (accessor) {
        const key = `${member.children.some((child) => child.type === 'static') ? 'static ' : ''}${name}`;
        if (names.has(key)) continue;
        names.add(key);
      }
      count++;
    } else if (type === 'abstract_method_signature') {
      count++;
    } else if (type === 'public_field_definition') {
      const value = member.childForFieldName('value');
      if (value && FUNCTION_VALUES.has(value.type)) count++;
    }
  }
  return count;
}

function className(node: SyntaxNode): string {
  const own = node.childForFieldName('name')?.text;
  if (own) return own;
  const parent = node.parent;
  if (parent?.type === 'variable_declarator') return parent.childForFieldName('name')?.text ?? '(anonymous class)';
  return parent?.type === 'export_statement' ? 'default' : '(anonymous class)';
}

export const largeClass = defineRule({
  kind: 'file',
  meta: {
    id: 'large-class',
    description: 'Classes with too many methods or too many lines of code',
    category: 'code_smell',
    severity: 'info',
    roles: MAINTAINED_ROLES,
    metric: { values: ['lines', 'methods'], ofAnchor: true },
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'A class with many methods or many lines usually carries several responsibilities: its state is shared by ' +
        'code that has little to do with each other, every change risks unrelated behaviour, and it is hard to test in parts.',
      suggestedAction:
        'Find the groups of methods that use the same fields and move each group into its own class, delegating ' +
        'from the original where callers depend on it.',
    },
  },
  create(context) {
    if (isMinified(context.source)) return {};
    const { maxMethods, maxLines } = context.options;
    const lines = createCodeLineCollector(context.source);
    const classes: SyntaxNode[] = [];
    const own: Record<string, (node: SyntaxNode) => void> = {};
    for (const type of CLASS_NODE_TYPES) own[type] = (node) => classes.push(node);
    // Counting waits for the end of the walk, when every comment of the file has been seen.
    own['program:exit'] = () => {
      const codeLines = lines.codeLines();
      for (const node of classes) {
        const methods = countMethods(node.childForFieldName('body'));
        const count = codeLines.between(node.startPosition.row, node.endPosition.row);
        const tooManyMethods = methods > maxMethods;
        const tooLong = count > maxLines;
        if (!tooManyMethods && !tooLong) continue;
        const name = className(node);
        const measures = [tooManyMethods ? `${methods} methods` : '', tooLong ? `${count} lines of code` : ''].filter(Boolean);
        const limit = tooManyMethods && tooLong ? `${maxMethods} methods and ${maxLines} lines` : `${tooManyMethods ? maxMethods : maxLines}`;
        context.report({
          node,
          title: `Class ${name} has ${measures.join(' and ')} (max ${limit})`,
          description:
            `${name} declares ${methods} methods (at most ${maxMethods} allowed) and spans ${count} lines of code ` +
            `(at most ${maxLines}), not counting blank and comment lines; the constructor does not count as a method, ` +
            'a getter and setter pair counts once.',
          severity: 'info',
          symbol: name,
          data: { methods, lines: count, maxMethods, maxLines },
        });
      }
    };
    return mergeVisitors(lines.visitor, own);
  },
});
