import { analyzeFileSource, type Language } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { tokenCollector } from './token-collector.js';
import { decodeTokenFact, TOKEN_FACT_KEY, type TokenFact } from './token-fact.js';
import { lexTokens } from './lexer.js';

/** Runs the collector in the engine's single walk over one file, as the pipeline does. */
function collect(source: string, language: Language = 'typescript'): TokenFact {
  const path = language === 'tsx' ? 'src/example.tsx' : 'src/example.ts';
  const summary = analyzeFileSource({ path, language, kind: 'source', sizeBytes: source.length }, source, {
    analyzers: [],
    fileRules: [],
    repositoryRules: [],
    collectors: [{ analyzerId: 'duplication', collector: tokenCollector }],
    fingerprint: 'test',
  });
  return summary.facts[TOKEN_FACT_KEY] as TokenFact;
}

/** The text of the tokens of a `[start, end)` token range, joined by spaces. */
function textOf(source: string, from: number, to: number): string {
  const { starts } = lexTokens(source);
  return Array.from({ length: to - from }, (_, k) => source.slice(starts[from + k], starts[from + k + 1] ?? source.length).trim()).join(' ');
}

describe('token collector', () => {
  it('stores every token once, as base64 hashes and line deltas that survive JSON', () => {
    const source = 'const a = 1;\n\n// note\nexport function f() {\n  return `x${a}`;\n}\n';
    const fact = JSON.parse(JSON.stringify(collect(source))) as TokenFact;
    const stream = decodeTokenFact(fact)!;
    const lexed = lexTokens(source);
    expect(fact.count).toBe(lexed.count);
    expect(Array.from(stream.hashes)).toEqual(Array.from(lexed.hashes));
    expect(Array.from(stream.rows)).toEqual([0, 0, 0, 0, 0, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5]);
  });

  it('reads regular expressions and JSX text from the tree', () => {
    const source = 'const r = /"[/]/g, s = a / b;\nconst el = <b>it\'s</b>;';
    const stream = decodeTokenFact(collect(source, 'tsx'))!;
    // const r = REGEX , s = a / b ; | const el = < b > TEXT < / b > ;
    expect(stream.hashes.length).toBe(23);
    expect(Array.from(stream.hashes, (h) => h & 7)).toEqual([0, 1, 0, 5, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 7, 0, 0, 1, 0, 0]);
  });

  it('reads JSX text that starts with the layout before it as one token', () => {
    const source = "const a = (\n  <div>\n    Hello, it's {name}\n  </div>\n);";
    const stream = decodeTokenFact(collect(source, 'tsx'))!;
    // const a = ( < div > TEXT { name } < / div > ) ;
    expect(Array.from(stream.hashes, (h) => h & 7)).toEqual([0, 1, 0, 0, 0, 1, 0, 7, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    expect(stream.rows[7]).toBe(2);
  });

  it('records import declarations and re-exports, not other exports', () => {
    const source = "import { a } from './a';\nimport type { B } from './b';\nexport const c = a;\nexport { d } from './d';\nexport * from './e';\n";
    const fact = collect(source);
    const ranges = [];
    for (let i = 0; i < fact.imports.length; i += 2) ranges.push(textOf(source, fact.imports[i], fact.imports[i + 1]));
    expect(ranges).toEqual(["import { a } from './a' ;", "import type { B } from './b' ;", "export { d } from './d' ;", "export * from './e' ;"]);
  });

  it('records overload sets: consecutive signatures of one name and the header of their implementation', () => {
    const source = [
      'export function pipe(): void;',
      'export function pipe(a: A): A;',
      '/** docs */',
      'export function pipe(...fns: F[]): unknown {',
      '  return fns;',
      '}',
      'class C {',
      '  m(): void;',
      '  m(a?: A) {}',
      '  n(): void {}',
      '}',
      'declare function lonely(): void;',
      'interface I { (a: A): B; (b: B): A; k(): void; }',
    ].join('\n');
    const fact = collect(source);
    const sets = [];
    for (let i = 0; i < fact.overloads.length; i += 2) sets.push(textOf(source, fact.overloads[i], fact.overloads[i + 1]));
    expect(sets).toEqual([
      'export function pipe ( ) : void ; export function pipe ( a : A ) : A ; /** docs */ export function pipe ( ... fns : F [ ] ) : unknown',
      'm ( ) : void ; m ( a ? : A )',
      '( a : A ) : B ; ( b : B ) : A ;',
    ]);
  });
});
