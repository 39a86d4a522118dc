import { describe, expect, it } from 'vitest';
import { analyzeWith, findingsOf, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { consistency } from '../index.js';
import { namingConvention } from './rule.js';
import { LOW_SEVERITY_CONSISTENCY, severityFor } from '../shared/convention-rule.js';

const RULE = 'consistency/naming-convention';
const WORDS = ['load', 'save', 'parse', 'render', 'fetch', 'build', 'check', 'merge', 'split', 'format', 'count', 'reset'];
/** `count` camelCase functions, one per line, named loadUser, saveUser, ... */
const camelFunctions = (count: number, noun = 'User') =>
  WORDS.slice(0, count)
    .map((w) => `export function ${w}${noun}() {}\n`)
    .join('');

describe('consistency/naming-convention', () => {
  it('reports a snake_case function among camelCase ones, with the rename and the share', async () => {
    const repo = new MiniRepo({ 'src/users.ts': camelFunctions(12), 'src/legacy.ts': 'export function parse_url(raw: string) {\n  return raw;\n}\n' });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      filePath: 'src/legacy.ts',
      title: 'Function parse_url in legacy.ts is snake_case, not camelCase',
      description:
        'parse_url (src/legacy.ts:1) is named in snake_case, while 92.3% (12 of 13) of the function names in this repository are camelCase. ' +
        'Rename it to parseUrl. It is exported: other modules or packages may use the old name, so keep a deprecated alias if it is public API.',
      severity: 'info',
      symbol: 'parse_url',
      category: 'consistency',
      source: 'convention',
      confidence: 80,
      data: { pattern: 'function-naming', value: 'snake_case', dominantValue: 'camelCase', consistency: 92.3 },
    });
    expect(findings[0].anchor).toMatchObject({ lineStart: 1, lineEnd: 1, validated: true });
    expect(result.conventions.find((c) => c.name === 'function-naming')).toEqual({
      name: 'function-naming',
      consistency: 92.3,
      dominantValue: 'camelCase',
      totalCount: 13,
      deviationCount: 1,
      values: { camelCase: 12, snake_case: 1 },
    });
  });

  it("reports at info whatever the convention's strength (its README's measured precision); other convention rules are low from 95%", async () => {
    expect([severityFor(LOW_SEVERITY_CONSISTENCY), severityFor(LOW_SEVERITY_CONSISTENCY - 1)]).toEqual(['low', 'info']);
    const many = Object.fromEntries(['a', 'b'].map((n) => [`src/${n}.ts`, camelFunctions(12, n === 'a' ? 'Order' : 'Item')]));
    const repo = new MiniRepo({ ...many, 'src/odd.ts': 'export const get_item = () => 1;\n' });
    const result = await analyzeWith(consistency, repo.root);
    expect(result.findings.filter((f) => f.ruleId === RULE).map((f) => [f.title, f.severity])).toEqual([
      ['Function get_item in odd.ts is snake_case, not camelCase', 'info'],
    ]);
  });

  it('does not count single words, acronyms, decorations, constructors or JSX components as deviations', async () => {
    const repo = new MiniRepo({
      'src/users.ts': camelFunctions(12),
      'src/words.ts': [
        'export function parse() {}',
        'export function parseURL() {}',
        'export function _privateHelper() {}',
        'export function toJSON() {}',
        'function Legacy(this: any, x: number) { this.x = x; }',
        'export { Legacy };',
      ].join('\n'),
      'src/view.tsx': 'export function UserCard() { return <div />; }\nexport const useUser = () => 1;\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'function-naming')).toMatchObject({ consistency: 100, deviationCount: 0 });
  });

  it('treats PascalCase functions and one-letter names as a convention of their own', async () => {
    const repo = new MiniRepo({
      'src/users.ts': camelFunctions(12),
      'src/decorators.ts':
        'export function Injectable() {\n  return (target: unknown) => target;\n}\nexport const Done = () => ({ _tag: "Done" });\nexport const SK = <A, B>(_: A, b: B): B => b;\n',
      'src/kind.ts': 'export class Kind {\n  get _F() {\n    return 1;\n  }\n  runOnce() {}\n}\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'function-naming')).toMatchObject({ totalCount: 15, values: { camelCase: 15 } });
    // A function in UPPER_SNAKE is no acronym: still a deviation.
    repo.write({ 'src/limits.ts': 'export function MAX_RETRIES() {\n  return 3;\n}\n' });
    const again = await analyzeWith(consistency, repo.root);
    expect(findingsOf(again, RULE)).toEqual(['src/limits.ts:1 Function MAX_RETRIES in limits.ts is UPPER_SNAKE, not camelCase']);
  });

  it('does not sample a type named after a value of its file, even one the parser could not read', async () => {
    const types = WORDS.map((w) => `export interface ${w[0].toUpperCase()}${w.slice(1)}Options { a: number }\n`).join('');
    const repo = new MiniRepo({
      'src/types.ts': types,
      'src/ops.ts': [
        'export function run() {',
        '  const OP_EMIT = "Emit" as const;',
        '  type OP_EMIT = typeof OP_EMIT;',
        '  return OP_EMIT as OP_EMIT;',
        '}',
        'export interface optional<A> { value?: A }',
        'export const optional = <A>(value?: A): optional<A> => ({ value });',
        'export interface refine<A> { refined: A }',
        'export const lenient: { <A>(a: A): A } = (a) => a;',
        'export type lenient = number;',
      ].join('\n'),
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual(['src/ops.ts:8 Type refine in ops.ts is camelCase, not PascalCase']);
  });

  it('does not judge type-level functions (generic lower-camel aliases) or type-level constants (an UPPER_SNAKE alias of a literal)', async () => {
    const types = WORDS.map((w) => `export interface ${w[0].toUpperCase()}${w.slice(1)}Options { a: number }\n`).join('');
    const repo = new MiniRepo({
      'src/types.ts': types,
      'src/inference.ts': [
        'export type inferRouterOutputs<TRouter> = TRouter extends { output: infer O } ? O : never;',
        'export type objectOutputType<Shape extends object> = { [K in keyof Shape]: Shape[K] };',
        'type MAXIMUM_DEPTH = 20;',
        // Still types named in another style: no type parameters, or not a literal.
        'export type overridableHeader = boolean | string;',
        'export type DEFAULT_SHAPE = { a: 1 };',
      ].join('\n'),
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual([
      'src/inference.ts:4 Type overridableHeader in inference.ts is camelCase, not PascalCase',
      'src/inference.ts:5 Type DEFAULT_SHAPE in inference.ts is UPPER_SNAKE, not PascalCase',
    ]);
  });

  it('judges classes, types, methods and literal constants separately', async () => {
    const classes = WORDS.map((w) => `export class ${w[0].toUpperCase()}${w.slice(1)}Service {\n  runTask() {}\n}\n`).join('');
    const constants = WORDS.map((w, i) => `export const ${w.toUpperCase()}_LIMIT = ${i};\n`).join('');
    const types = WORDS.map((w) => `export interface ${w[0].toUpperCase()}${w.slice(1)}Options { a: number }\n`).join('');
    const repo = new MiniRepo({
      'src/services.ts': classes,
      'src/limits.ts': `${constants}export const defaultTimeout = 30;\nexport const config = { a: 1 };\nlet counter_value = 1;\n`,
      'src/types.ts': `${types}export type user_record = { id: string };\n`,
      'src/odd.ts': 'export class http_client {\n  Send_Request() {}\n  override_me() {}\n}\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([
      'src/limits.ts:13 Constant defaultTimeout in limits.ts is camelCase, not UPPER_SNAKE',
      'src/odd.ts:1 Class http_client in odd.ts is snake_case, not PascalCase',
      'src/odd.ts:2 Method Send_Request in odd.ts is mixed-style, not camelCase',
      'src/odd.ts:3 Method override_me in odd.ts is snake_case, not camelCase',
      'src/types.ts:13 Type user_record in types.ts is snake_case, not PascalCase',
    ]);
    // 12 runTask of 14 methods: 85.7%, above the 80% bar.
    expect(result.conventions.find((c) => c.name === 'method-naming')).toMatchObject({ totalCount: 14, values: { camelCase: 12, other: 1, snake_case: 1 } });
    expect(result.conventions.find((c) => c.name === 'constant-naming')).toMatchObject({ totalCount: 13, dominantValue: 'UPPER_SNAKE' });
  });

  it('reports nothing below the thresholds, and honours minConsistency, minSamples, ignore and the cap', async () => {
    const mixed = new MiniRepo({ 'src/a.ts': camelFunctions(8), 'src/b.ts': 'export function a_b() {}\nexport function c_d() {}\n' });
    const result = await analyzeWith(consistency, mixed.root);
    // 8 of 10 is 80%, but 10 samples: reported; with 9 samples it would not be.
    expect(findingsOf(result, RULE)).toHaveLength(2);
    mixed.write({ 'codehealth.config.json': JSON.stringify({ rules: { [RULE]: { options: { minConsistency: 90 } } } }) });
    expect(findingsOf(await analyzeWith(consistency, mixed.root), RULE)).toEqual([]);
    mixed.write({ 'codehealth.config.json': JSON.stringify({ rules: { [RULE]: { options: { minSamples: 11 } } } }) });
    expect(findingsOf(await analyzeWith(consistency, mixed.root), RULE)).toEqual([]);
    mixed.write({ 'codehealth.config.json': JSON.stringify({ rules: { [RULE]: { options: { maxIssuesPerPattern: 1 } } } }) });
    expect(findingsOf(await analyzeWith(consistency, mixed.root), RULE)).toEqual(['src/b.ts:1 Function a_b in b.ts is snake_case, not camelCase']);
    mixed.write({ 'codehealth.config.json': JSON.stringify({ rules: { [RULE]: { options: { ignore: ['^c_'] } } } }) });
    expect(findingsOf(await analyzeWith(consistency, mixed.root), RULE)).toEqual([]);
    // A lookahead, and a shape that makes RegExp backtrack for ages on a long name, both run (matching nothing here).
    mixed.write({ 'codehealth.config.json': JSON.stringify({ rules: { [RULE]: { options: { ignore: ['^(?=zz)', '^(\\w+_?)+!'] } } } }) });
    expect(findingsOf(await analyzeWith(consistency, mixed.root), RULE)).toHaveLength(2);
  });

  it('refuses `ignore` patterns the linear-time matcher cannot run, saying why', () => {
    const parsed = namingConvention.meta.options.safeParse({ ignore: ['^(get|set)\\1'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toMatch(/uses backreferences, which the linear-time matcher does not support/);
  });

  it('looks at source files only: tests and ambient declarations set no convention', async () => {
    const repo = new MiniRepo({
      'src/users.ts': camelFunctions(12),
      'src/users.test.ts': 'function make_user() {}\n',
      'src/globals.ts': 'declare global {\n  interface window_ext { a: 1 }\n}\nexport {};\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'type-naming')).toBeUndefined();
  });
});
