import { describe, expect, it } from 'vitest';
import { parseImport } from './collector.js';

describe('parseImport reads the bindings of an import declaration', () => {
  it('default, named with aliases, namespace', () => {
    expect(parseImport("import save, { load, store as keep } from './db.js';")).toEqual([
      ['load', { specifier: './db.js', imported: 'load' }],
      ['keep', { specifier: './db.js', imported: 'store' }],
      ['save', { specifier: './db.js', imported: 'default' }],
    ]);
    expect(parseImport('import * as mailer from "../mailer"')).toEqual([['mailer', { specifier: '../mailer', imported: '*' }]]);
    expect(parseImport("import run, * as jobs from './jobs';")).toEqual([
      ['jobs', { specifier: './jobs', imported: '*' }],
      ['run', { specifier: './jobs', imported: 'default' }],
    ]);
  });

  it('type-only imports and specifiers bind nothing callable; comments and line breaks are ignored', () => {
    expect(parseImport("import type { A } from './a';")).toEqual([]);
    expect(parseImport("import {\n  type A, // the type\n  b, /* c, */\n  'd-e' as de,\n} from './x';")).toEqual([
      ['b', { specifier: './x', imported: 'b' }],
      ['de', { specifier: './x', imported: 'd-e' }],
    ]);
    expect(parseImport("import './side-effect.js';")).toEqual([]);
  });
});
