// The value bindings an import statement creates: `import a, { b as c } from 'x'` binds `a` to
// `default` and `c` to `b`; `import * as ns` binds `ns` to the whole module (`*`).
import type { SyntaxNode } from '@codehealth/engine/kit';

export interface ImportBindings {
  specifier: string;
  bindings: Array<{ local: string; name: string }>;
}

/** Undefined for `import type` statements, which bind nothing at run time. */
export function readImportBindings(node: SyntaxNode): ImportBindings | undefined {
  if (node.children.some((child) => child.type === 'type')) return undefined;
  const specifier = node.childForFieldName('source')?.text.slice(1, -1);
  if (specifier === undefined) return undefined;
  const bindings: ImportBindings['bindings'] = [];
  const clause = node.namedChildren.find((child) => child.type === 'import_clause');
  for (const part of clause?.namedChildren ?? []) {
    if (part.type === 'identifier') bindings.push({ local: part.text, name: 'default' });
    else if (part.type === 'namespace_import') {
      const local = part.namedChildren.find((child) => child.type === 'identifier')?.text;
      if (local) bindings.push({ local, name: '*' });
    } else if (part.type === 'named_imports') {
      for (const spec of part.namedChildren) {
        if (spec.type !== 'import_specifier' || spec.children.some((child) => child.type === 'type')) continue;
        const name = spec.childForFieldName('name')?.text;
        if (name) bindings.push({ local: spec.childForFieldName('alias')?.text ?? name, name });
      }
    }
  }
  return { specifier, bindings };
}
