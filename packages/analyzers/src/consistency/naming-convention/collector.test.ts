import { analyzeFileSource, type RuleSet } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { type NameFacts, namesCollector } from './collector.js';

function valueNamesOf(source: string): string[] {
  const ruleSet: RuleSet = {
    analyzers: [],
    fileRules: [],
    repositoryRules: [],
    collectors: [{ analyzerId: 'consistency', collector: namesCollector }],
    fingerprint: '',
  };
  const file = { path: 'src/a.ts', language: 'typescript' as const, kind: 'source' as const, sizeBytes: source.length };
  const facts = analyzeFileSource(file, source, ruleSet).facts['consistency/names'] as NameFacts;
  return facts.valueNames ?? [];
}

describe('naming-convention names collector: lower-case types that are also values', () => {
  it('takes a type as a value companion when `const|let|var|function[*] <name>` declares its whole name', () => {
    const source = [
      'interface refine {}',
      'const refine = f();',
      'type opt = 1;',
      'const optional = g();', // a longer name is not the name
      'interface gen {}',
      'function*\n  gen() {}',
      'type mixed = 1;',
      'letmixed = 2;', // no word boundary before the keyword
      'interface box$ {}',
      'var box$x = f();', // `\b` after `$` needs a word character next, as the pattern always did
      'interface late {}',
      'if (x) { let   late = h(); }',
    ].join('\n');
    expect(valueNamesOf(source).sort()).toEqual(['box$', 'gen', 'late', 'refine']);
  });
});
