import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAnalyzer, defineRule } from './define.js';
import { buildRuleSet, ruleAppliesTo } from './rule-set.js';

const docs = { whyItMatters: 'w', suggestedAction: 's' };
const limited = defineRule({
  kind: 'file',
  meta: {
    id: 'limited',
    description: 'd',
    category: 'code_smell',
    severity: 'medium',
    docs,
    options: z
      .object({ max: z.number().int().default(3) })
      .strict()
      .default({ max: 3 }),
  },
  create: () => ({}),
});
const plain = defineRule({ kind: 'repository', meta: { id: 'plain', description: 'd', category: 'dead_code', severity: 'low', docs }, analyze: () => {} });
const analyzer = defineAnalyzer({ id: 'demo', description: 'd', categories: ['code_smell', 'dead_code'], languages: ['typescript'], rules: [limited, plain] });

describe('buildRuleSet', () => {
  it('enables every rule with default options', () => {
    const set = buildRuleSet([analyzer], {});
    expect(set.fileRules.map((r) => [r.qualifiedId, r.options])).toEqual([['demo/limited', { max: 3 }]]);
    expect(set.repositoryRules.map((r) => r.qualifiedId)).toEqual(['demo/plain']);
  });

  it('applies options, severities and disabling, and changes the fingerprint with them', () => {
    const base = buildRuleSet([analyzer], {});
    const set = buildRuleSet([analyzer], { rules: { 'demo/limited': { options: { max: 9 }, severity: 'high' }, 'demo/plain': 'off' } });
    expect(set.fileRules[0]).toMatchObject({ options: { max: 9 }, severityOverride: 'high' });
    expect(set.repositoryRules).toEqual([]);
    expect(set.fingerprint).not.toBe(base.fingerprint);
    // The plugins' code is part of it: the same rules from other code are another rule set.
    expect(buildRuleSet([analyzer], {}, ['demo@1.0.0#aa']).fingerprint).not.toBe(buildRuleSet([analyzer], {}, ['demo@1.0.0#bb']).fingerprint);
    expect(buildRuleSet([analyzer], { analyzers: { demo: false } }).analyzers).toEqual([]);
  });

  it('rejects unknown analyzers, unknown rules and options the schema refuses', () => {
    expect(() => buildRuleSet([analyzer], { analyzers: { nope: true } })).toThrow(/analyzers.nope: no such analyzer \(known: demo\)/);
    expect(() => buildRuleSet([analyzer], { rules: { 'demo/nope': 'off' } })).toThrow(/rules.demo\/nope: no such rule/);
    expect(() => buildRuleSet([analyzer], { rules: { 'demo/limited': { options: { max: 'x' } } } })).toThrow(/rules.demo\/limited.options: max:/);
    expect(() => buildRuleSet([analyzer], { rules: { 'demo/plain': { options: { a: 1 } } } })).toThrow(/takes no options/);
    expect(() => buildRuleSet([analyzer, analyzer], {})).toThrow(/two plugins provide an analyzer with id "demo"/);
  });
});

describe('ruleAppliesTo', () => {
  const productOnly = defineRule({
    kind: 'file',
    meta: { id: 'product-only', description: 'd', category: 'security', severity: 'high', docs, roles: ['production'] },
    create: () => ({}),
  });
  const set = buildRuleSet(
    [defineAnalyzer({ id: 'roles', description: 'd', categories: ['security', 'code_smell'], languages: ['typescript'], rules: [productOnly, limited] })],
    {},
  );
  const [onlyProduct, anyRole] = set.fileRules;
  const file = (path: string, role?: 'production' | 'test' | 'example') => ({
    path,
    language: 'typescript' as const,
    kind: 'source' as const,
    sizeBytes: 1,
    ...(role ? { role } : {}),
  });

  it('limits a rule to the roles its meta names; a rule naming none sees every role', () => {
    expect(ruleAppliesTo(onlyProduct!, set.analyzers[0], file('src/a.ts', 'production'))).toBe(true);
    expect(ruleAppliesTo(onlyProduct!, set.analyzers[0], file('examples/a.ts', 'example'))).toBe(false);
    // a file described without a role has its kind's: source is production
    expect(ruleAppliesTo(onlyProduct!, set.analyzers[0], file('src/b.ts'))).toBe(true);
    expect(ruleAppliesTo(anyRole!, set.analyzers[0], file('examples/a.ts', 'example'))).toBe(true);
  });
});

describe('defineRule / defineAnalyzer', () => {
  it('refuse incomplete declarations', () => {
    expect(() =>
      defineRule({ kind: 'file', meta: { id: 'Bad Id', description: 'd', category: 'code_smell', severity: 'low', docs }, create: () => ({}) }),
    ).toThrow(/kebab-case/);
    expect(() =>
      defineRule({
        kind: 'file',
        meta: { id: 'x', description: 'd', category: 'code_smell', severity: 'low', docs: { whyItMatters: '', suggestedAction: '' } },
        create: () => ({}),
      }),
    ).toThrow(/docs/);
    expect(() =>
      defineRule({
        kind: 'file',
        meta: { id: 'x', description: 'd', category: 'code_smell', severity: 'low', docs, options: z.object({ n: z.number() }) },
        create: () => ({}),
      }),
    ).toThrow(/must accept undefined/);
    expect(() => defineAnalyzer({ id: 'a', description: 'd', categories: ['security'], languages: [], rules: [limited] })).toThrow(
      /not listed in the analyzer's categories/,
    );
    expect(() => defineAnalyzer({ id: 'a', description: 'd', categories: ['code_smell'], languages: [], rules: [limited, limited] })).toThrow(
      /duplicate rule id/,
    );
  });
});
