// Reports imports of banned modules and calls of banned functions, as configured per repository.
// Inactive (subscribes to nothing) until the `banned` option lists something.
import { defineRule, SEVERITIES, type NodeVisitor, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createFunctionScope, mergeVisitors } from '../../shared/visitors.js';
import { calleePath, importBindings, requireBindings, stringValue, type Binding } from './syntax.js';

const common = { message: z.string().optional(), severity: z.enum(SEVERITIES).optional() };
const entry = z.union([z.object({ name: z.string().min(1), ...common }).strict(), z.object({ call: z.string().min(1), ...common }).strict()]);
type Entry = z.infer<typeof entry>;

const options = z
  .object({ banned: z.array(entry).default([]) })
  .strict()
  .prefault({});

const withoutNodePrefix = (name: string): string => name.replace(/^node:/, '');

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export const bannedApi = defineRule({
  kind: 'file',
  meta: {
    id: 'banned-api',
    description: 'Imports of banned modules and calls of banned functions, as the repository configures them',
    category: 'compliance',
    severity: 'medium',
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'A repository bans a module or function for a reason: a licence it cannot accept, a known vulnerability, a deprecated ' +
        'API being migrated away from, or a house rule (one date library, one HTTP client). Each new use makes the migration ' +
        'longer and the rule weaker.',
      suggestedAction: 'Use the replacement the ban names instead of the banned module or function.',
    },
  },
  create(context) {
    const { banned } = context.options;
    if (banned.length === 0) return {};
    const modules = banned.filter((b): b is Entry & { name: string } => 'name' in b);
    const calls = banned.filter((b): b is Entry & { call: string } => 'call' in b);
    const file = fileName(context.file.path);
    const scope = createFunctionScope();
    const bindings = new Map<string, Binding>();
    const candidates: Array<{ node: SyntaxNode; path: string[]; symbol?: string }> = [];

    const report = (node: SyntaxNode, rule: Entry, title: string, what: string, confidence: number) => {
      const symbol = scope.current();
      context.report({
        node,
        title,
        description: `${what} is banned in this repository${rule.message ? `: ${rule.message}` : '.'}`,
        ...(rule.message ? { suggestedAction: rule.message } : {}),
        ...(rule.severity ? { severity: rule.severity } : {}),
        ...(symbol ? { symbol } : {}),
        confidence,
      });
    };
    const checkModule = (node: SyntaxNode, specifier: string) => {
      const wanted = withoutNodePrefix(specifier);
      const rule = modules.find((m) => {
        const name = withoutNodePrefix(m.name);
        return wanted === name || wanted.startsWith(`${name}/`);
      });
      if (rule) report(node, rule, `Banned module ${specifier} imported in ${file}`, `The module ${rule.name}`, 95);
    };

    const visitor: NodeVisitor = {
      import_statement(node) {
        const source = node.childForFieldName('source') ?? node.namedChildren.find((c) => c.type === 'import_require_clause')?.childForFieldName('source');
        const specifier = stringValue(source);
        if (specifier === undefined) return;
        checkModule(node, specifier);
        for (const [local, binding] of importBindings(node, specifier)) bindings.set(local, binding);
      },
      export_statement(node) {
        const specifier = stringValue(node.childForFieldName('source'));
        if (specifier !== undefined) checkModule(node, specifier);
      },
      call_expression(node) {
        const callee = node.childForFieldName('function');
        if (!callee) return;
        if (callee.type === 'import' || (callee.type === 'identifier' && callee.text === 'require')) {
          const specifier = stringValue(node.childForFieldName('arguments')?.firstNamedChild);
          if (specifier === undefined) return;
          checkModule(node, specifier);
          if (callee.type === 'identifier') for (const [local, binding] of requireBindings(node, specifier)) bindings.set(local, binding);
          return;
        }
        if (calls.length === 0) return;
        const path = calleePath(callee);
        if (path) candidates.push({ node, path, symbol: scope.current() });
      },
      new_expression(node) {
        if (calls.length === 0) return;
        const path = calleePath(node.childForFieldName('constructor'));
        if (path) candidates.push({ node, path, symbol: scope.current() });
      },
      // Imports may follow their use in the text; calls are matched once every binding is known.
      'program:exit'() {
        for (const { node, path, symbol } of candidates) {
          const binding = bindings.get(path[0]);
          const written = path.join('.');
          const resolved = binding
            ? [
                withoutNodePrefix(binding.module),
                ...(binding.imported === 'default' || binding.imported === '*' ? [] : [binding.imported]),
                ...path.slice(1),
              ].join('.')
            : written;
          const rule = calls.find((c) => withoutNodePrefix(c.call) === resolved);
          if (!rule) continue;
          const alias = resolved === written ? '' : ` (${written})`;
          context.report({
            node,
            title: `Banned call ${rule.call}()${alias} in ${fileName(context.file.path)}`,
            description: `${rule.call}() is banned in this repository${rule.message ? `: ${rule.message}` : '.'}`,
            ...(rule.message ? { suggestedAction: rule.message } : {}),
            ...(rule.severity ? { severity: rule.severity } : {}),
            ...(symbol ? { symbol } : {}),
            // A local variable may shadow a global of the same name; scopes are not resolved.
            confidence: binding ? 95 : 85,
          });
        }
      },
    };
    return mergeVisitors(scope.visitor, visitor);
  },
});
