import { describe, expect, it } from 'vitest';
import type { Finding } from '../domain/types.js';
import { makeFinding } from './fixtures/assessment-result.js';
import { issueFingerprint, legacyIssueFingerprint, normaliseAnchorText } from './issue-id.js';

const at = (finding: Finding, codeSnippet: string, lineStart = finding.anchor.lineStart): Finding => ({
  ...finding,
  anchor: { ...finding.anchor, lineStart, lineEnd: lineStart + codeSnippet.split('\n').length - 1, codeSnippet },
});

describe('normaliseAnchorText', () => {
  it('leaves out what a formatter changes: line breaks, spaces, quotes, semicolons, arrow parentheses, trailing commas, comments', () => {
    const before = 'const total = items.reduce((sum, item) => sum + item.price * 1.2, 0); // with VAT';
    const after = 'const total = items.reduce(\n  (sum, item) =>\n    sum + item.price * 1.2,\n  0,\n);';
    expect(normaliseAnchorText(after)).toBe(normaliseAnchorText(before));
    expect(normaliseAnchorText('fetch("/a", { retry: true, })')).toBe(normaliseAnchorText("fetch('/a', {\n  retry: true\n})"));
    expect(normaliseAnchorText('run(x => x)')).toBe(normaliseAnchorText('run((x) => x)'));
    expect(normaliseAnchorText('/* note */ eval(code)')).toBe(normaliseAnchorText('eval(code)'));
  });

  it('keeps the code itself and what strings hold', () => {
    expect(normaliseAnchorText('eval(code)')).not.toBe(normaliseAnchorText('eval(other)'));
    expect(normaliseAnchorText("log('a  b')")).not.toBe(normaliseAnchorText("log('a b')"));
    expect(normaliseAnchorText("open('http://x//y')")).toBe("open'http://x//y'");
    expect(normaliseAnchorText('f(a, b)')).toBe('fa,b');
  });
});

describe('issueFingerprint', () => {
  const smell = makeFinding({
    ruleId: 'code-smell/magic-numbers',
    symbol: 'checkout',
    anchor: { lineStart: 20, lineEnd: 20, codeSnippet: '  const fee = total * 0.029 + 30;', validated: true },
  });

  it('of a non-metric rule: rule, file, qualified symbol and the anchor text, whatever the formatting or the line', () => {
    const fp = issueFingerprint(smell);
    expect(issueFingerprint(at(smell, 'const fee =\n  total * 0.029 +\n  30', 41))).toBe(fp);
    expect(issueFingerprint(at(smell, '  const fee = total * 0.031 + 30;'))).not.toBe(fp);
    expect(issueFingerprint({ ...smell, symbol: 'Cart.checkout' })).not.toBe(fp);
    expect(issueFingerprint({ ...smell, filePath: 'src/other.ts' })).not.toBe(fp);
    expect(issueFingerprint({ ...smell, ruleId: 'code-smell/other' })).not.toBe(fp);
  });

  const complex = makeFinding({
    ruleId: 'code-smell/cognitive-complexity',
    symbol: 'Cart.checkout',
    metric: { values: ['complexity'] },
    data: { complexity: 22, threshold: 15 },
    anchor: { lineStart: 12, lineEnd: 60, codeSnippet: 'checkout(cart) {\n  if (a) {', validated: true },
  });

  it('of a metric rule: rule, file and symbol only — its first lines and its value are not part of it', () => {
    const fp = issueFingerprint(complex);
    const edited = { ...at(complex, 'checkout(cart, options = {}) {\n  const started = Date.now();', 14), data: { complexity: 31, threshold: 15 } };
    expect(issueFingerprint(edited)).toBe(fp);
    expect(issueFingerprint({ ...complex, symbol: 'Cart.pay' })).not.toBe(fp);
    expect(issueFingerprint({ ...complex, filePath: 'src/cart2.ts' })).not.toBe(fp);
  });

  it('differs from the fingerprint issues carried before (kept as their legacy alias)', () => {
    expect(legacyIssueFingerprint(complex)).not.toBe(issueFingerprint(complex));
    // The legacy formula: whitespace-insensitive line by line, the symbol's first lines included.
    expect(legacyIssueFingerprint(at(complex, 'checkout(cart)   {\n\n    if (a) {'))).toBe(legacyIssueFingerprint(complex));
    expect(legacyIssueFingerprint(at(complex, 'checkout(cart, options) {\n  if (a) {'))).not.toBe(legacyIssueFingerprint(complex));
  });
});
