import { describe, expect, it } from 'vitest';
import { mapTargets } from './package-exports.js';

describe('mapTargets', () => {
  it('treats a string, an array or a bare condition object as the `.` export', () => {
    expect(mapTargets('./index.js', '.')).toEqual(['./index.js']);
    expect(mapTargets(['./a.js', './b.js'], '.')).toEqual(['./a.js', './b.js']);
    expect(mapTargets({ import: './esm.js', require: './cjs.js' }, '.')).toEqual(['./esm.js', './cjs.js']);
    expect(mapTargets('./index.js', './sub')).toEqual([]);
  });

  it('tries conditions in our order of preference, whatever the key order, through nested objects', () => {
    const field = { '.': { default: './d.js', node: { import: './n.mjs', require: './n.cjs' }, types: './t.d.ts', source: './s.ts' } };
    expect(mapTargets(field, '.')).toEqual(['./s.ts', './t.d.ts', './n.mjs', './n.cjs', './d.js']);
    expect(mapTargets(field, '.', ['default'])).toEqual(['./d.js']);
    expect(mapTargets({ '.': { browser: './b.js' } }, '.')).toEqual([]);
  });

  it('matches `*` patterns by the longest prefix and substitutes every `*` of the target', () => {
    const field = {
      './*': './dist/*.js',
      './utils/*': { types: './types/utils/*.d.ts', default: './dist/utils/*/index.js' },
      './utils/private/*': null,
      './exact': './exact.js',
    };
    expect(mapTargets(field, './utils/str')).toEqual(['./types/utils/str.d.ts', './dist/utils/str/index.js']);
    expect(mapTargets(field, './other/deep')).toEqual(['./dist/other/deep.js']);
    expect(mapTargets(field, './utils/private/x')).toEqual([]);
    expect(mapTargets(field, './exact')).toEqual(['./exact.js']);
  });

  it('supports legacy folder keys and `#` import maps', () => {
    expect(mapTargets({ './lib/': './dist/lib/' }, './lib/a.js')).toEqual(['./dist/lib/a.js']);
    expect(mapTargets({ '#db': { node: './src/db.ts', default: './src/db-browser.ts' }, '#dep': 'lodash' }, '#db')).toEqual([
      './src/db.ts',
      './src/db-browser.ts',
    ]);
    expect(mapTargets({ '#dep': 'lodash' }, '#dep')).toEqual(['lodash']);
  });
});
