// Reading numeric literals, and recognising values that a constant's name already explains.
import type { SyntaxNode } from '@codehealth/engine/kit';

/** The value of a numeric literal as written: separators, hex/octal/binary and BigInt suffixes. */
export function literalValue(text: string): number {
  const clean = text.replace(/_/g, '').replace(/n$/, '');
  // Legacy octal (`017`) is read as octal, as the language does.
  if (/^0[0-7]+$/.test(clean)) return parseInt(clean, 8);
  return Number(clean);
}

const SCREAMING = /^[A-Z][A-Z0-9_]*$/;

/**
 * A value built only from literals and other named constants (`24 * 60 * 60 * 1000`,
 * `MINUTE * 5`, `Math.PI / 180`): the declaration's name is the name of the number.
 */
export function isNamedConstantValue(node: SyntaxNode): boolean {
  switch (node.type) {
    case 'number':
      return true;
    case 'identifier':
      return SCREAMING.test(node.text);
    case 'member_expression':
      return SCREAMING.test(node.childForFieldName('property')?.text ?? '');
    case 'binary_expression':
      return isNamedConstantValue(node.childForFieldName('left')!) && isNamedConstantValue(node.childForFieldName('right')!);
    case 'unary_expression':
      return isNamedConstantValue(node.childForFieldName('argument')!);
    case 'parenthesized_expression':
    case 'as_expression':
    case 'satisfies_expression':
      return node.firstNamedChild !== null && isNamedConstantValue(node.firstNamedChild);
    default:
      return false;
  }
}
