// Syntactic equivalence as SonarJS decides it: same node type and the same tokens, so whitespace,
// comments and line breaks do not matter while every identifier, literal and operator does.
import type { SyntaxNode } from '@codehealth/engine/kit';

export interface Tokens {
  /** Node type and token texts, joined: equal keys mean equivalent code. */
  key: string;
  /** Source offsets of the first token's start and the last token's end that are not braces; -1 without any. */
  start: number;
  end: number;
}

/** Parentheses are not nodes in ESTree; unwrapping them keeps types and tokens comparable to SonarJS. */
export function unwrap(node: SyntaxNode): SyntaxNode {
  let current = node;
  while (current.type === 'parenthesized_expression') {
    const inner = current.namedChildren.find((child) => child.type !== 'comment');
    if (!inner) break;
    current = inner;
  }
  return current;
}

const LOGICAL = new Set(['&&', '||', '??']);

/** ESTree's split of binary operators: `&&`, `||` and `??` make a LogicalExpression. */
export function estreeType(node: SyntaxNode): string {
  if (node.type !== 'binary_expression') return node.type;
  return LOGICAL.has(node.childForFieldName('operator')?.type ?? '') ? 'logical' : 'binary';
}

export function tokensOf(node: SyntaxNode, source: string): Tokens {
  const texts: string[] = [];
  let start = -1;
  let end = -1;
  const cursor = node.walk();
  for (;;) {
    const isComment = cursor.nodeType === 'comment';
    if (!isComment && cursor.gotoFirstChild()) continue;
    if (!isComment) {
      const from = cursor.startIndex;
      const to = cursor.endIndex;
      // Zero-width nodes are MISSING tokens the parser made up; they are not in the text.
      if (to > from) {
        const text = source.slice(from, to);
        texts.push(text);
        if (text !== '{' && text !== '}') {
          if (start === -1) start = from;
          end = to;
        }
      }
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent() || cursor.currentDepth === 0) {
        return { key: `${estreeType(node)}\u0000${texts.join('\u0001')}`, start, end };
      }
    }
  }
}

/** Statements of a list (a switch clause), each by type and tokens, as one key. */
export function listKey(nodes: readonly SyntaxNode[], source: string): string {
  return nodes.map((node) => tokensOf(node, source).key).join('\u0002');
}
