import { describe, expect, it } from 'vitest';
import { lexTokens, TOKEN_CLASS, type OpaqueRange } from './lexer.js';
import { spanHash, tokenHash, type TokenClass } from './lexer-scanners.js';

const { other, identifier, string, number, template, regex, comment, jsxText } = TOKEN_CLASS;

/** Lexes and checks the tokens are exactly `expected` ([text, class] pairs), by hash. */
function expectTokens(source: string, expected: Array<[string, TokenClass]>, opaque: OpaqueRange[] = []): void {
  const tokens = lexTokens(source, opaque);
  const names = Object.fromEntries(Object.entries(TOKEN_CLASS).map(([k, v]) => [v, k]));
  const describe = (hash: number): string => {
    const hit = expected.find(([text, cls]) => tokenHash(text, cls) === hash);
    return hit ? `${hit[0]} (${names[hit[1]]})` : `unexpected token of class ${names[hash & 7]} at index`;
  };
  expect(Array.from(tokens.hashes, describe)).toEqual(expected.map(([text, cls]) => describe(tokenHash(text, cls))));
  expect(Array.from(tokens.hashes)).toEqual(expected.map(([text, cls]) => tokenHash(text, cls)));
}

describe('lexTokens', () => {
  it('splits code into identifiers, keywords, numbers, strings and longest-match punctuators', () => {
    expectTokens(`const total = a?.b ?? 0x1F + 1_000n >= .5e-3;`, [
      ['const', other],
      ['total', identifier],
      ['=', other],
      ['a', identifier],
      ['?.', other],
      ['b', identifier],
      ['??', other],
      ['0x1F', number],
      ['+', other],
      ['1_000n', number],
      ['>=', other],
      ['.5e-3', number],
      [';', other],
    ]);
    // As jscpd's tokenizer does in types: `>>` closes two type argument lists.
    expectTokens('let m: Map<K, Set<V>>;', [
      ['let', other],
      ['m', identifier],
      [':', other],
      ['Map', identifier],
      ['<', other],
      ['K', identifier],
      [',', other],
      ['Set', identifier],
      ['<', other],
      ['V', identifier],
      ['>', other],
      ['>', other],
      [';', other],
    ]);
    expectTokens(`x = c ? .5 : 'it\\'s' + "\\"q\\"";`, [
      ['x', identifier],
      ['=', other],
      ['c', identifier],
      ['?', other],
      ['.5', number],
      [':', other],
      ["'it\\'s'", string],
      ['+', other],
      ['"\\"q\\""', string],
      [';', other],
    ]);
  });

  it('keeps keywords and contextual keywords apart from names, and reads private and unicode names', () => {
    expectTokens(`type T = readonly string[]; this.#count = café;`, [
      ['type', other],
      ['T', identifier],
      ['=', other],
      ['readonly', other],
      ['string', other],
      ['[', other],
      [']', other],
      [';', other],
      ['this', other],
      ['.', other],
      ['#count', identifier],
      ['=', other],
      ['café', identifier],
      [';', other],
    ]);
  });

  it('hashes a token in place as it hashes its text (keywords, names that contain one, long tokens)', () => {
    const long = 'x'.repeat(47);
    const source = `in int instanceof instanceOf of off Of typeof _typeof ${long} ${long}y 'a b' 12`;
    for (const match of source.matchAll(/\S+/g)) {
      const [text] = match;
      const start = match.index;
      for (const tokenClass of [identifier, string, number])
        expect(spanHash(source, start, start + text.length, tokenClass), text).toBe(tokenHash(text, tokenClass));
    }
    expect(spanHash(source, 0, 2, identifier) & 7).toBe(other);
    expect(spanHash(source, 3, 6, identifier) & 7).toBe(identifier);
  });

  it('makes comments tokens of their own, hashbang included, whatever their length', () => {
    const doc = `/**\n * ${'long documentation '.repeat(20)}\n */`;
    expectTokens(`#!/usr/bin/env node\n// note\nf(); ${doc}`, [
      ['#!/usr/bin/env node', comment],
      ['// note', comment],
      ['f', identifier],
      ['(', other],
      [')', other],
      [';', other],
      [doc, comment],
    ]);
  });

  it('cuts template literals at their substitutions, nested ones included', () => {
    expectTokens('`a${b + `c${d}`}e` + {}', [
      ['`a${', template],
      ['b', identifier],
      ['+', other],
      ['`c${', template],
      ['d', identifier],
      ['}`', template],
      ['}e`', template],
      ['+', other],
      ['{', other],
      ['}', other],
    ]);
    expectTokens('f(`${ {a: 1}.a }`)', [
      ['f', identifier],
      ['(', other],
      ['`${', template],
      ['{', other],
      ['a', identifier],
      [':', other],
      ['1', number],
      ['}', other],
      ['.', other],
      ['a', identifier],
      ['}`', template],
      [')', other],
    ]);
  });

  it('takes regular expressions and JSX text from the ranges the tree found; other slashes divide', () => {
    const source = 'a = b / c; r = /[/*]"/g; d = <p>Don\'t   panic</p>;';
    const start = source.indexOf('/[');
    const text = source.indexOf("Don't");
    expectTokens(
      source,
      [
        ['a', identifier],
        ['=', other],
        ['b', identifier],
        ['/', other],
        ['c', identifier],
        [';', other],
        ['r', identifier],
        ['=', other],
        ['/[/*]"/g', regex],
        [';', other],
        ['d', identifier],
        ['=', other],
        ['<', other],
        ['p', identifier],
        ['>', other],
        ["Don't panic", jsxText],
        ['<', other],
        ['/', other],
        ['p', identifier],
        ['>', other],
        [';', other],
      ],
      [
        { start, end: start + '/[/*]"/g'.length, tokenClass: regex },
        { start: text, end: text + "Don't   panic".length, tokenClass: jsxText },
      ],
    );
  });

  it('gives each token its line, counting \\n, \\r\\n and lone \\r, and records tokens spanning lines', () => {
    const tokens = lexTokens('a\r\nb /* x\r\n y */ c\rd `t\n\nu` e\n');
    expect(Array.from(tokens.rows)).toEqual([0, 1, 1, 2, 3, 3, 5]);
    expect(tokens.multiline).toEqual([2, 2, 5, 5]);
  });

  it('ends unterminated strings at the end of their line and never throws on odd characters', () => {
    expectTokens("s = 'open\nnext @ \\ ¿", [
      ['s', identifier],
      ['=', other],
      ["'open", string],
      ['next', identifier],
      ['@', other],
      ['\\', other],
      ['¿', other],
    ]);
  });

  it('marks the tokens between jscpd:ignore-start and jscpd:ignore-end', () => {
    const tokens = lexTokens('a;\n// jscpd:ignore-start\nb; c;\n/* jscpd:ignore-end */\nd;');
    // a ; [comment] b ; c ; [comment] d ;
    expect(tokens.ignored).toEqual([3, 7]);
    expect(lexTokens('a; // jscpd:ignore-start\nb;').ignored).toEqual([3, 5]);
  });

  it('records where each token starts', () => {
    expect(Array.from(lexTokens('  foo(bar)').starts)).toEqual([2, 5, 6, 9]);
  });
});
