// Line counts and function lines of code must be those of the split lines masked with the comments'
// rows and columns (the original definition), whatever the line endings.
import { describe, expect, it } from 'vitest';
import type { SyntaxNode } from 'tree-sitter';
import type { RuleSet } from '../plugins/rule-set.js';
import { FUNCTION_NODE_TYPES } from '../parsing/functions.js';
import { parseSource } from '../parsing/parser.js';
import { analyzeFileSource } from './analyze-file.js';
import { splitLines } from './findings.js';

const EMPTY: RuleSet = { analyzers: [], fileRules: [], repositoryRules: [], collectors: [], fingerprint: '' };

function summaryOf(source: string) {
  return analyzeFileSource({ path: 'a.ts', language: 'typescript', kind: 'source', sizeBytes: source.length }, source, EMPTY);
}

/** The definition: mask comments (rows and columns from the binding) in the split lines; blank, comment-only, code. */
function reference(source: string): { total: number; blank: number; comment: number; code: number; locs: number[] } {
  const lines = splitLines(source);
  const masked = new Map<number, string>();
  const functions: Array<[number, number]> = [];
  const visit = (node: SyntaxNode): void => {
    if (node.type === 'comment') {
      for (let row = node.startPosition.row; row <= node.endPosition.row; row++) {
        const text = masked.get(row) ?? lines[row] ?? '';
        const from = row === node.startPosition.row ? node.startPosition.column : 0;
        const to = row === node.endPosition.row ? node.endPosition.column : text.length;
        masked.set(row, text.slice(0, from) + ' '.repeat(Math.max(0, to - from)) + text.slice(to));
      }
    }
    if ((FUNCTION_NODE_TYPES as readonly string[]).includes(node.type)) functions.push([node.startPosition.row, node.endPosition.row]);
    for (const child of node.children) visit(child);
  };
  visit(parseSource(source, 'typescript').rootNode);
  const total = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  let blank = 0;
  let comment = 0;
  for (let row = 0; row < total; row++) {
    if (lines[row].trim() === '') blank++;
    else if (masked.has(row) && masked.get(row)!.trim() === '') comment++;
  }
  const locs = functions.map(([first, last]) => {
    let loc = 0;
    for (let i = first; i <= last; i++) if (lines[i]?.trim()) loc++;
    return loc;
  });
  return { total, blank, comment, code: total - blank - comment, locs };
}

describe('line counts', () => {
  it('counts blank, comment-only and code lines around block, line and trailing comments', () => {
    const source = '// head\n\nconst a = 1; // tail\n/* one\n   two */ f();\n  /** doc\n   */\n\u00a0\t\nfunction g() {\n\n  return 1;\n}\n';
    const summary = summaryOf(source);
    expect(summary.lines).toEqual({ total: 12, blank: 3, comment: 4, code: 5 });
    expect(summary.functions.find((f) => f.name === 'g')?.loc).toBe(3);
  });

  it('agrees with the masking of split lines for \\n, \\r\\n and lone \\r endings', () => {
    const parts = [
      'const a = 1;',
      '// c',
      '/* x',
      'y */',
      '/* z */ b();',
      'a(); /* m */ /* n */',
      'c(/* p',
      'q */);',
      '',
      '  ',
      'function f() {',
      'return 2;',
      '}',
      '/** é */',
      'let s = `',
      '`;',
    ];
    const endings = ['\n', '\r\n', '\r'];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let sample = 0; sample < 600; sample++) {
      let source = '';
      for (let k = random(14); k > 0; k--) source += parts[random(parts.length)] + endings[random(sample % 3 === 0 ? 3 : 2)];
      const { locs, ...lines } = reference(source);
      const summary = summaryOf(source);
      expect(summary.lines, JSON.stringify(source)).toEqual(lines);
      expect(
        summary.functions.map((f) => f.loc),
        JSON.stringify(source),
      ).toEqual(locs);
    }
  });
});
