import { describe, expect, it } from 'vitest';
import { compliance } from './index.js';

describe('compliance analyzer', () => {
  it('has the documented rules, kinds and defaults', () => {
    expect(compliance.rules.map((r) => [r.meta.id, r.kind, r.meta.severity])).toEqual([
      ['license-file', 'repository', 'medium'],
      ['license-header', 'file', 'low'],
      ['dependency-license', 'repository', 'high'],
      ['banned-api', 'file', 'medium'],
      ['debt-marker', 'repository', 'info'],
    ]);
    expect(Object.fromEntries(compliance.rules.map((r) => [r.meta.id, r.meta.options?.parse(undefined)]))).toEqual({
      'license-file': undefined,
      'license-header': { lines: 30 },
      'dependency-license': { includeDev: false, ignore: [], reportUnknown: true },
      'banned-api': { banned: [] },
      'debt-marker': { markers: ['TODO', 'FIXME', 'HACK', 'XXX'], includeTests: true, lowAfterDays: 90, mediumAfterDays: 365, blame: true },
    });
    expect(compliance.rules.filter((r) => r.meta.autoFixable).map((r) => r.meta.id)).toEqual(['license-header']);
  });

  it('refuses options that make no sense', () => {
    const options = (id: string) => compliance.rules.find((r) => r.meta.id === id)!.meta.options!;
    expect(options('license-header').safeParse({ pattern: '(' }).success).toBe(false);
    expect(options('debt-marker').safeParse({ lowAfterDays: 100, mediumAfterDays: 10 }).success).toBe(false);
    expect(options('debt-marker').safeParse({ markers: ['NOTE'] }).success).toBe(false);
    expect(options('banned-api').safeParse({ banned: [{ module: 'x' }] }).success).toBe(false);
  });
});
