// Guards the package's public surface: what the engine loads by default and what plugins may import.
import { describe, expect, it } from 'vitest';
import * as surface from './index.js';

describe('@codehealth/analyzers', () => {
  it('exports exactly the plugin (default and named) and the analyzers', () => {
    expect(Object.keys(surface).sort()).toEqual([
      'codeSmell',
      'compliance',
      'consistency',
      'deadCode',
      'default',
      'duplication',
      'plugin',
      'runtime',
      'sarifImport',
      'security',
      'testing',
    ]);
    expect(surface.default).toBe(surface.plugin);
  });

  it('is the plugin the engine loads by default, with the code-smell rules in order', () => {
    expect(surface.plugin.name).toBe('@codehealth/analyzers');
    expect(surface.plugin.analyzers.map((analyzer) => analyzer.id)).toEqual([
      'security',
      'runtime',
      'testing',
      'code-smell',
      'duplication',
      'dead-code',
      'consistency',
      'compliance',
      'sarif-import',
    ]);
    expect(surface.codeSmell.rules.map((rule) => rule.meta.id)).toEqual([
      'cognitive-complexity',
      'long-function',
      'too-many-parameters',
      'deep-nesting',
      'oversized-file',
      'large-class',
      'duplicated-branches',
      'magic-numbers',
      'god-module',
      'explicit-any',
      'type-check-suppression',
      'blanket-lint-disable',
    ]);
  });

  it('gives every rule options whose defaults are the documented ones', () => {
    const defaults = Object.fromEntries(surface.codeSmell.rules.map((rule) => [rule.meta.id, rule.meta.options?.parse(undefined)]));
    expect(defaults).toEqual({
      'cognitive-complexity': { threshold: 15, variant: 'sonarjs' },
      'long-function': { max: 80 },
      'too-many-parameters': { max: 5 },
      'deep-nesting': { max: 4 },
      'oversized-file': { max: 800 },
      'large-class': { maxMethods: 20, maxLines: 500 },
      'duplicated-branches': undefined,
      'magic-numbers': { ignore: [-1, 0, 1, 2], ignoreScaleFactors: true, ignoreWellKnown: true },
      'god-module': { maxExports: 30, minLinesForExports: 500, maxLines: 1500, minDependents: 15 },
      'explicit-any': { minCount: 5, perKloc: 20 },
      'type-check-suppression': { reportDescribedIgnore: false },
      'blanket-lint-disable': { requireReason: false },
    });
  });
});
