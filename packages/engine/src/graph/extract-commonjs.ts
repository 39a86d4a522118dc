// CommonJS exports: `module.exports = ...`, `module.exports.x = ...`, `exports.x = ...`,
// `exports['x'] = ...`. Shadowed `module`/`exports` bindings are not detected (rare in practice).
import type { SyntaxNode } from 'tree-sitter';
import type { ModuleFactsBuilder } from './module-facts-builder.js';
import { lineOf, literalText } from './syntax.js';
import type { ExportKind } from './types.js';

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'generator_function']);

export function readCommonJsAssignment(node: SyntaxNode, builder: ModuleFactsBuilder): void {
  const left = node.childForFieldName('left');
  if (!left || (left.type !== 'member_expression' && left.type !== 'subscript_expression')) return;
  const object = left.childForFieldName('object');
  if (!object) return;
  const right = node.childForFieldName('right');
  const line = lineOf(node);
  const objectText = object.text;
  if (left.type === 'member_expression' && objectText === 'module' && left.childForFieldName('property')?.text === 'exports') {
    builder.commonJs = true;
    builder.addExport({ name: 'default', kind: 'default', line, typeOnly: false });
    // `module.exports = { a, b }` is also read by name (Node's CommonJS named-export detection).
    if (right?.type === 'object') {
      for (const entry of right.namedChildren) {
        const key = propertyName(entry);
        if (key !== undefined)
          builder.addExport({ name: key, kind: valueKind(entry.childForFieldName('value') ?? entry), line: lineOf(entry), typeOnly: false });
      }
    }
    return;
  }
  if (objectText !== 'exports' && objectText !== 'module.exports') return;
  const name = left.type === 'member_expression' ? left.childForFieldName('property')?.text : literalText(left.childForFieldName('index'));
  if (name === undefined) return;
  builder.commonJs = true;
  builder.addExport({ name, kind: right ? valueKind(right) : 'variable', line, typeOnly: false });
}

function propertyName(entry: SyntaxNode): string | undefined {
  if (entry.type === 'shorthand_property_identifier') return entry.text;
  if (entry.type === 'pair' || entry.type === 'method_definition') {
    const key = entry.childForFieldName('key') ?? entry.childForFieldName('name');
    if (!key || key.type === 'computed_property_name') return undefined;
    return key.type === 'string' ? key.text.slice(1, -1) : key.text;
  }
  return undefined;
}

function valueKind(value: SyntaxNode): ExportKind {
  if (FUNCTION_VALUES.has(value.type) || value.type === 'method_definition') return 'function';
  if (value.type === 'class') return 'class';
  return 'variable';
}
