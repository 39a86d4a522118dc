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

  it('picks what a scan of every pattern and folder key in map order picks, on random maps', () => {
    // The index by prefix must not change Node's choice: longest prefix, then longest key, first among
    // equals, and a folder key only when it precedes every matching pattern.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), (seed >> 8) % n);
    // Keys of a subpath map all start with `.` or `#`; a small alphabet makes keys overlap and tie.
    const text = (max: number) => Array.from({ length: random(max + 1) }, () => 'ab/'[random(3)]).join('');
    const start = () => ['./', '#'][random(2)];
    for (let round = 0; round < 2000; round++) {
      const field: Record<string, string> = {};
      const keys = 1 + random(6);
      for (let i = 0; i < keys; i++) {
        const shape = random(3);
        const key = shape === 0 ? `${start()}${text(3)}*${text(2)}` : shape === 1 ? `${start()}${text(2)}/` : `${start()}${text(3)}`;
        field[key] = `./t${i}/*`;
      }
      for (let i = 0; i < 10; i++) {
        const subpath = `${start()}${text(6)}`;
        expect(mapTargets(field, subpath), `${JSON.stringify(field)} ${subpath}`).toEqual(scanTargets(field, subpath));
      }
    }
  });
});

/** The resolution before the index: every pattern and folder key compared in map order. */
function scanTargets(map: Record<string, string>, subpath: string): string[] {
  if (map[subpath] !== undefined) return [map[subpath]];
  let bestKey: string | undefined;
  let bestMatch = '';
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star >= 0) {
      const prefix = key.slice(0, star);
      const suffix = key.slice(star + 1);
      if (subpath.length < key.length - 1 || !subpath.startsWith(prefix) || !subpath.endsWith(suffix)) continue;
      const better = bestKey === undefined || (star !== bestKey.indexOf('*') ? bestKey.indexOf('*') - star : bestKey.length - key.length) < 0;
      if (better) {
        bestKey = key;
        bestMatch = subpath.slice(prefix.length, subpath.length - suffix.length);
      }
    } else if (key.endsWith('/') && subpath.startsWith(key) && bestKey === undefined) {
      return [map[key] + subpath.slice(key.length)];
    }
  }
  return bestKey === undefined ? [] : [map[bestKey].replaceAll('*', bestMatch)];
}
