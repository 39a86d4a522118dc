import { analyzeFileSource, type RuleSet } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { type DeadCodeFileFacts, fileFactsCollector } from './file-facts.js';

function factsOf(source: string): DeadCodeFileFacts {
  const ruleSet: RuleSet = {
    analyzers: [],
    fileRules: [],
    repositoryRules: [],
    collectors: [{ analyzerId: 'dead-code', collector: fileFactsCollector }],
    fingerprint: '',
  };
  const file = { path: 'src/a.ts', language: 'typescript' as const, kind: 'source' as const, sizeBytes: source.length };
  return analyzeFileSource(file, source, ruleSet).facts['dead-code/file-facts'] as DeadCodeFileFacts;
}

describe('dead-code file facts: exports used in their own file', () => {
  it('finds whole-word references only, whatever words share a name length or hash', () => {
    const source = [
      // `Aa` and `BB` have the same hash as the scan computes it; only `BB` is referenced.
      'export const Aa = 1;',
      'export const BB = 2;',
      'f(BB, xAa, Aa2, aA);',
      'export function ab() {}',
      'ba(); o.ab; ab_;',
      'export const café = 1;',
      'g(café);',
      'export const caf = 1;',
      'h(cafés);',
    ].join('\n');
    expect(factsOf(source).usedInFile.sort()).toEqual(['BB', 'café']);
  });
});
