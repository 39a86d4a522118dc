// Where a finding is, in words for its title: the enclosing function, or else the file's name.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { enclosingSymbol } from './scope.js';

export interface Place {
  symbol?: string;
  /** `runJob` or `config.ts`. */
  label: string;
}

export function placeOf(node: SyntaxNode, filePath: string): Place {
  const symbol = enclosingSymbol(node);
  return { symbol, label: symbol ?? filePath.slice(filePath.lastIndexOf('/') + 1) };
}

/** A short quotation of code for a description. */
export function quote(node: SyntaxNode, max = 60): string {
  const text = node.text.replace(/\s+/g, ' ');
  return `\`${text.length > max ? `${text.slice(0, max - 3)}...` : text}\``;
}
