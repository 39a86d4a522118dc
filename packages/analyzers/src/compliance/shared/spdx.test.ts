import { describe, expect, it } from 'vitest';
import { canonicalLicenseId, detectLicenseText, licenseMatches, parseLicenseExpression, readLicenseDeclaration } from './spdx.js';
import { LICENSE_TEXTS } from './fixtures/license-texts.js';

describe('canonicalLicenseId', () => {
  it.each([
    ['mit', 'MIT'],
    ['Apache 2.0', 'Apache-2.0'],
    ['apache-2.0', 'Apache-2.0'],
    ['GPL-3.0+', 'GPL-3.0-or-later'],
    ['gpl-2.0-only', 'GPL-2.0-only'],
    ['BSD-3', 'BSD-3-Clause'],
    ['Custom-Thing', 'Custom-Thing'],
  ])('%s → %s', (raw, id) => expect(canonicalLicenseId(raw)).toBe(id));
});

describe('parseLicenseExpression', () => {
  it('gives alternatives of conjunctions, AND binding tighter than OR', () => {
    expect(parseLicenseExpression('MIT')).toEqual([['MIT']]);
    expect(parseLicenseExpression('(MIT OR Apache-2.0)')).toEqual([['MIT'], ['Apache-2.0']]);
    expect(parseLicenseExpression('MIT AND BSD-3-Clause OR ISC')).toEqual([['MIT', 'BSD-3-Clause'], ['ISC']]);
    expect(parseLicenseExpression('(MIT OR Apache-2.0) AND BSD-3-Clause')).toEqual([
      ['MIT', 'BSD-3-Clause'],
      ['Apache-2.0', 'BSD-3-Clause'],
    ]);
    expect(parseLicenseExpression('GPL-2.0-or-later WITH Classpath-exception-2.0')).toEqual([['GPL-2.0-or-later']]);
  });

  it('refuses text that is not an expression', () => {
    expect(parseLicenseExpression('(MIT OR')).toBeUndefined();
    expect(parseLicenseExpression('MIT Apache')).toBeUndefined();
  });
});

describe('readLicenseDeclaration', () => {
  it('reads the field, its legacy forms and npm’s special values', () => {
    expect(readLicenseDeclaration({ license: 'MIT' })).toEqual({ kind: 'expression', text: 'MIT', options: [['MIT']] });
    expect(readLicenseDeclaration({ license: { type: 'ISC' } })).toMatchObject({ options: [['ISC']] });
    expect(readLicenseDeclaration({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] })).toMatchObject({ options: [['MIT'], ['Apache-2.0']] });
    expect(readLicenseDeclaration({ license: 'UNLICENSED' })).toEqual({ kind: 'unlicensed' });
    expect(readLicenseDeclaration({ license: 'SEE LICENSE IN EULA.txt' })).toEqual({ kind: 'see-file', file: 'EULA.txt' });
    expect(readLicenseDeclaration({})).toEqual({ kind: 'none' });
    expect(readLicenseDeclaration({ license: 'MIT License' })).toMatchObject({ options: [['MIT']] });
  });
});

describe('detectLicenseText', () => {
  it.each(Object.entries(LICENSE_TEXTS))('recognises %s', (id, text) => {
    expect(detectLicenseText(text)).toBe(id);
  });

  it('takes a GPL text that mentions the Affero and Lesser GPL further down for the GPL', () => {
    const gpl = `${LICENSE_TEXTS['GPL-3.0']}\n${'x '.repeat(400)}\n13. Use with the GNU Affero General Public License. ... GNU Lesser General Public License instead`;
    expect(detectLicenseText(gpl)).toBe('GPL-3.0');
  });

  it('does not guess', () => {
    expect(detectLicenseText('All rights reserved. Do not copy.')).toBeUndefined();
    expect(detectLicenseText('')).toBeUndefined();
  });
});

describe('licenseMatches', () => {
  it('matches glob patterns and licence families case-insensitively', () => {
    expect(licenseMatches('GPL-3.0-only', 'GPL-*')).toBe(true);
    expect(licenseMatches('LGPL-3.0', 'GPL-*')).toBe(false);
    expect(licenseMatches('AGPL-3.0-or-later', 'agpl-*')).toBe(true);
    expect(licenseMatches('GPL-3.0-or-later', 'GPL-3.0')).toBe(true);
    expect(licenseMatches('BSD-3-Clause', 'BSD-*')).toBe(true);
    expect(licenseMatches('MIT-0', 'MIT')).toBe(false);
  });
});
