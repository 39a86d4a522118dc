// Tracks which local names come from which module during the walk: `import { exec } from
// 'node:child_process'`, `import * as cp`, `const cp = require('child_process')`, `const { exec:
// run } = require(...)` and `const execAsync = promisify(exec)`. Imports precede their uses, so
// the walk has seen a binding by the time a call to it is visited.
import type { NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';
import { argumentsOf, calleeOf, literalString, unwrap } from './syntax.js';

export interface ModuleExport {
  /** The module specifier without a `node:` prefix (`child_process`, `fs/promises`). */
  module: string;
  /** The export's name; `*` for the module object itself (namespace, default or `require`). */
  name: string;
}

export interface ModuleBindings {
  visitor: NodeVisitor;
  /** The module export a call calls (`exec()`, `cp.exec()`, `fs.promises.readFile()`), if known. */
  resolveCall(call: SyntaxNode): ModuleExport | undefined;
}

const stripNode = (specifier: string): string => specifier.replace(/^node:/, '');

function requiredModule(node: SyntaxNode): string | undefined {
  const n = unwrap(node);
  if (n.type !== 'call_expression' || calleeOf(n)?.name !== 'require' || calleeOf(n)?.object) return undefined;
  const specifier = argumentsOf(n)[0];
  return specifier ? literalString(specifier) : undefined;
}

/** `modules` says which specifiers (without `node:`) are worth tracking. */
export function createModuleBindings(modules: ReadonlySet<string>): ModuleBindings {
  const bindings = new Map<string, ModuleExport>();
  const bind = (local: string, module: string, name: string) => {
    if (modules.has(module)) bindings.set(local, { module, name });
  };

  /** What an expression denotes when it is a module object or one of its exports. */
  const resolveValue = (node: SyntaxNode): ModuleExport | undefined => {
    const n = unwrap(node);
    if (n.type === 'identifier') return bindings.get(n.text);
    const required = requiredModule(n);
    if (required !== undefined) return modules.has(stripNode(required)) ? { module: stripNode(required), name: '*' } : undefined;
    if (n.type === 'member_expression') {
      const object = n.childForFieldName('object');
      const property = n.childForFieldName('property')?.text;
      const base = object ? resolveValue(object) : undefined;
      // `fs.promises` and `fs.default` are still the module's functions.
      if (base && property && (base.name === '*' || base.name === 'promises' || base.name === 'default')) {
        return { module: base.module, name: property === 'promises' || property === 'default' ? '*' : property };
      }
    }
    return undefined;
  };

  const onImport = (node: SyntaxNode) => {
    const source = node.childForFieldName('source');
    const clause = node.namedChildren.find((c) => c.type === 'import_clause');
    if (!source || !clause) return;
    const module = stripNode(source.text.slice(1, -1));
    if (!modules.has(module)) return;
    for (const part of clause.namedChildren) {
      if (part.type === 'identifier') bind(part.text, module, '*');
      else if (part.type === 'namespace_import') {
        const local = part.namedChildren.find((c) => c.type === 'identifier');
        if (local) bind(local.text, module, '*');
      } else if (part.type === 'named_imports') {
        for (const specifier of part.namedChildren) {
          if (specifier.type !== 'import_specifier') continue;
          const name = specifier.childForFieldName('name')?.text;
          const local = specifier.childForFieldName('alias')?.text ?? name;
          if (name && local) bind(local, module, name === 'default' || name === 'promises' ? '*' : name);
        }
      }
    }
  };

  const onDeclarator = (node: SyntaxNode) => {
    const pattern = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (!pattern || !value) return;
    const v = unwrap(value.type === 'await_expression' ? (value.namedChildren[0] ?? value) : value);
    let resolved = resolveValue(v);
    // `promisify(exec)` behaves like `exec` as far as its arguments go.
    if (!resolved && v.type === 'call_expression' && calleeOf(v)?.name === 'promisify') {
      const wrapped = argumentsOf(v)[0];
      resolved = wrapped ? resolveValue(wrapped) : undefined;
    }
    if (!resolved) return;
    if (pattern.type === 'identifier') bindings.set(pattern.text, resolved);
    else if (pattern.type === 'object_pattern' && (resolved.name === '*' || resolved.name === 'promises')) {
      for (const entry of pattern.namedChildren) {
        if (entry.type === 'shorthand_property_identifier_pattern') bindings.set(entry.text, { module: resolved.module, name: entry.text });
        else if (entry.type === 'pair_pattern') {
          const key = entry.childForFieldName('key')?.text;
          const local = entry.childForFieldName('value');
          if (key && local?.type === 'identifier') bindings.set(local.text, { module: resolved.module, name: key });
        }
      }
    }
  };

  return {
    visitor: { import_statement: onImport, variable_declarator: onDeclarator },
    resolveCall(call) {
      const fn = call.childForFieldName('function');
      if (!fn) return undefined;
      const resolved = resolveValue(fn);
      return resolved && resolved.name !== '*' ? resolved : undefined;
    },
  };
}
