import { describe, expect, it } from 'vitest';
import { analyzeWith, findingsOf, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { consistency } from '../index.js';

const RULE = 'consistency/error-handling-style';
const typedThrows = (n: number) =>
  'export class ValidationError extends Error {}\nexport class NotFoundError extends Error {}\n' +
  Array.from(
    { length: n },
    (_, i) => `export function check${i}(x: number) {\n  if (x > ${i}) throw new ${i % 3 ? 'ValidationError' : 'errors.NotFoundError'}('too big');\n}\n`,
  ).join('') +
  'declare const errors: { NotFoundError: typeof NotFoundError };\n';
const guarded = (n: number) =>
  'declare function get(x: string): Promise<string>;\n' +
  Array.from({ length: n }, (_, i) => `export async function load${i}() {\n  try {\n    return await get('${i}');\n  } catch {\n    return '';\n  }\n}\n`).join(
    '',
  );

describe('consistency/error-handling-style', () => {
  it('reports a plain Error where the code base throws subclasses, naming the usual ones', async () => {
    const repo = new MiniRepo({
      'src/checks.ts': typedThrows(12),
      'src/odd.ts':
        "export function parse(raw: string) {\n  if (!raw) throw new Error('empty');\n  if (raw === '?') throw new TypeError('not a value');\n  return raw;\n}\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings.map((f) => [f.filePath, f.anchor.lineStart, f.title, f.symbol])).toEqual([
      ['src/odd.ts', 2, 'Plain Error thrown in parse (odd.ts); the repository throws Error subclasses', 'parse'],
    ]);
    expect(findings[0].description).toBe(
      'src/odd.ts:2 throws a plain Error, while 92.3% (12 of 13) of the errors thrown by name in this repository are subclasses of Error (most often ValidationError, NotFoundError).',
    );
    // TypeError is a built-in subclass: neither choice.
    expect(result.conventions.find((c) => c.name === 'error-class')?.values).toEqual({ 'Error subclass': 12, 'plain Error': 1 });
  });

  it('publishes but does not report typed errors where plain Error is the rule', async () => {
    const plain = Array.from({ length: 12 }, (_, i) => `export function f${i}() {\n  throw new Error('${i}');\n}\n`).join('');
    const repo = new MiniRepo({
      'src/plain.ts': plain,
      'src/typed.ts': 'class ConfigError extends Error {}\nexport function g() {\n  throw new ConfigError("x");\n}\n',
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    expect(result.conventions.find((c) => c.name === 'error-class')).toMatchObject({ dominantValue: 'plain Error', deviationCount: 1 });
  });

  it('reports .catch() where rejections are handled with try/catch around await', async () => {
    const repo = new MiniRepo({
      'src/guarded.ts': guarded(12),
      'src/odd.ts': "declare function get(x: string): Promise<string>;\nexport function quiet() {\n  return get('a').catch(() => '');\n}\n",
      // A try without await in it, and one without a catch clause, are neither style.
      'src/other.ts': "export async function h() {\n  try {\n    JSON.parse('x');\n  } catch {}\n  try {\n    await Promise.resolve();\n  } finally {}\n}\n",
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual(['src/odd.ts:3 .catch() in quiet (odd.ts); the repository handles rejections with try/catch']);
    expect(result.conventions.find((c) => c.name === 'promise-error-handling')?.values).toEqual({ 'try/catch': 12, '.catch()': 1 });
  });

  it('does not sample a fire-and-forget .catch() or a try/catch inside a loop: neither had the other style as an alternative', async () => {
    const repo = new MiniRepo({
      'src/guarded.ts': guarded(12),
      'src/natural.ts': [
        'declare function get(x: string): Promise<string>;',
        'export function wrap(): Promise<string> {',
        '  return new Promise((resolve, reject) => {',
        "    get('a').then(resolve).catch(reject);",
        '  });',
        '}',
        'export function register() {',
        "  void get('sw').catch(() => undefined);",
        '}',
        'export async function cleanups(steps: Array<() => Promise<void>>) {',
        '  const errors: unknown[] = [];',
        '  for (const step of steps) {',
        '    try {',
        '      await step();',
        '    } catch (error) {',
        '      errors.push(error);',
        '    }',
        '  }',
        '  return errors;',
        '}',
        'export class Deferred<T> extends Promise<T> {',
        "  override catch<R>(onrejected?: (reason: unknown) => R): Promise<T | R> {\n    return get('d').then(() => this).catch(onrejected);\n  }",
        '}',
        // Awaited or returned: try/catch around await was the alternative, so these are samples.
        "export async function awaited() {\n  return await get('b').catch(() => '');\n}",
        "export const arrow = () => get('c').then((v) => v.trim()).catch(() => '');",
        '',
      ].join('\n'),
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([
      'src/natural.ts:27 .catch() in awaited (natural.ts); the repository handles rejections with try/catch',
      'src/natural.ts:29 .catch() in arrow (natural.ts); the repository handles rejections with try/catch',
    ]);
    expect(result.conventions.find((c) => c.name === 'promise-error-handling')?.values).toEqual({ 'try/catch': 12, '.catch()': 2 });
  });
});
