// SPDX licence identifiers: normalising what package.json files write, parsing licence
// expressions, and recognising the common licences from the text of a LICENSE file.
import { compileSafeRegExp, type SafeRegExp } from '@codehealth/engine/kit';

const KNOWN_IDS = [
  '0BSD',
  'AFL-3.0',
  'AGPL-3.0',
  'Apache-1.1',
  'Apache-2.0',
  'Artistic-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'BSD-4-Clause',
  'BSL-1.0',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC-BY-SA-4.0',
  'CC0-1.0',
  'CDDL-1.0',
  'EPL-1.0',
  'EPL-2.0',
  'EUPL-1.2',
  'GPL-2.0',
  'GPL-3.0',
  'ISC',
  'LGPL-2.0',
  'LGPL-2.1',
  'LGPL-3.0',
  'MIT',
  'MIT-0',
  'MPL-1.1',
  'MPL-2.0',
  'ODC-By-1.0',
  'OFL-1.1',
  'PSF-2.0',
  'Python-2.0',
  'SSPL-1.0',
  'Unicode-DFS-2016',
  'Unlicense',
  'UPL-1.0',
  'WTFPL',
  'X11',
  'Zlib',
];
const BY_LOWER = new Map(KNOWN_IDS.map((id) => [id.toLowerCase(), id]));

// Spellings seen in real package.json files that are not SPDX ids.
const ALIASES: Record<string, string> = {
  'apache 2.0': 'Apache-2.0',
  'apache-2': 'Apache-2.0',
  apache2: 'Apache-2.0',
  'apache 2': 'Apache-2.0',
  'apache license 2.0': 'Apache-2.0',
  'apache license, version 2.0': 'Apache-2.0',
  'mit license': 'MIT',
  'the mit license': 'MIT',
  'isc license': 'ISC',
  'bsd-3': 'BSD-3-Clause',
  'new bsd': 'BSD-3-Clause',
  '3-clause bsd': 'BSD-3-Clause',
  'bsd-2': 'BSD-2-Clause',
  'simplified bsd': 'BSD-2-Clause',
  gplv2: 'GPL-2.0',
  'gpl-2': 'GPL-2.0',
  gplv3: 'GPL-3.0',
  'gpl-3': 'GPL-3.0',
  lgplv3: 'LGPL-3.0',
  agplv3: 'AGPL-3.0',
  'mpl 2.0': 'MPL-2.0',
  mpl2: 'MPL-2.0',
  'the unlicense': 'Unlicense',
  cc0: 'CC0-1.0',
  'public domain': 'Unlicense',
  'blueoak-1.0': 'BlueOak-1.0.0',
  'python 2.0': 'Python-2.0',
};

/** The official spelling of an id (`mit` → `MIT`, `GPL-3.0-or-later` kept), or the input trimmed. */
export function canonicalLicenseId(raw: string): string {
  const text = raw.trim();
  const lower = text.toLowerCase();
  const alias = ALIASES[lower];
  if (alias) return alias;
  const suffix = /(-only|-or-later|\+)$/.exec(lower)?.[0];
  const base = suffix ? lower.slice(0, -suffix.length) : lower;
  const known = BY_LOWER.get(base);
  if (!known) return text;
  return suffix ? `${known}${suffix === '+' ? '-or-later' : suffix}` : known;
}

/** `GPL-3.0-or-later` → `GPL-3.0`: the licence itself, for comparing a declaration with a text. */
export function licenseFamily(id: string): string {
  return id.replace(/(-only|-or-later|\+)$/i, '');
}

/** Special values npm gives the `license` field. */
export type LicenseDeclaration =
  { kind: 'expression'; text: string; options: string[][] } | { kind: 'unlicensed' } | { kind: 'see-file'; file: string } | { kind: 'none' };

/**
 * A licence expression as alternatives of conjunctions: `(MIT OR Apache-2.0) AND BSD-3-Clause` →
 * `[[MIT, BSD-3-Clause], [Apache-2.0, BSD-3-Clause]]`. AND binds tighter than OR; `WITH` exceptions
 * are dropped (they only add permissions). Undefined when the text is not an expression.
 */
export function parseLicenseExpression(text: string): string[][] | undefined {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const keyword = (word: string) => tokens[at]?.toUpperCase() === word;
  const parseOr = (): string[][] | undefined => {
    let result = parseAnd();
    while (result && keyword('OR')) {
      at++;
      const right = parseAnd();
      result = right && [...result, ...right];
    }
    return result;
  };
  const parseAnd = (): string[][] | undefined => {
    let result = parseAtom();
    while (result && keyword('AND')) {
      at++;
      const right = parseAtom();
      result = right && result.flatMap((left) => right.map((r) => [...left, ...r]));
    }
    return result;
  };
  const parseAtom = (): string[][] | undefined => {
    const token = tokens[at++];
    if (token === undefined || token === ')') return undefined;
    if (token === '(') {
      const inner = parseOr();
      return tokens[at++] === ')' ? inner : undefined;
    }
    if (keyword('WITH')) at += 2;
    return [[canonicalLicenseId(token)]];
  };
  const result = parseOr();
  return result && at === tokens.length ? result : undefined;
}

/** What a package.json says about its licence, legacy forms (`{ type }`, `licenses: [...]`) included. */
export function readLicenseDeclaration(manifest: Record<string, unknown>): LicenseDeclaration {
  let text: string | undefined;
  const field = manifest.license;
  if (typeof field === 'string') text = field;
  else if (field && typeof field === 'object' && typeof (field as { type?: unknown }).type === 'string') text = (field as { type: string }).type;
  else if (Array.isArray(manifest.licenses)) {
    const types = manifest.licenses.map((l) => (typeof l === 'string' ? l : (l as { type?: unknown })?.type)).filter((t): t is string => typeof t === 'string');
    if (types.length > 0) text = types.length === 1 ? types[0] : `(${types.join(' OR ')})`;
  }
  if (text === undefined || text.trim() === '') return { kind: 'none' };
  if (text.trim().toUpperCase() === 'UNLICENSED') return { kind: 'unlicensed' };
  const see = /^SEE LICEN[CS]E IN (.+)$/i.exec(text.trim());
  if (see) return { kind: 'see-file', file: see[1].trim() };
  const options = parseLicenseExpression(text) ?? [[canonicalLicenseId(text)]];
  return { kind: 'expression', text: text.trim(), options };
}

// Licences whose text starts with a title; matched in the head so that a GPL text mentioning the
// Affero or Lesser GPL further down is not taken for them.
const TITLED: Array<[RegExp, string | ((head: string) => string)]> = [
  [/gnu affero general public license/, 'AGPL-3.0'],
  [/gnu lesser general public license/, (head) => (/version 2\.1/.test(head) ? 'LGPL-2.1' : 'LGPL-3.0')],
  [/gnu library general public license/, 'LGPL-2.0'],
  [/gnu general public license/, (head) => (/version 2\b/.test(head) ? 'GPL-2.0' : 'GPL-3.0')],
  [/mozilla public license,? (?:version )?2\.0/, 'MPL-2.0'],
  [/apache license,?\s+version 2\.0/, 'Apache-2.0'],
  [/server side public license/, 'SSPL-1.0'],
  [/boost software license/, 'BSL-1.0'],
  [/blue ?oak model license/, 'BlueOak-1.0.0'],
  [/cc0 1\.0 universal/, 'CC0-1.0'],
  [/eclipse public license - v ?2\.0/, 'EPL-2.0'],
];

/** The SPDX id of a LICENSE file's text for the common licences; undefined when not recognised. */
export function detectLicenseText(raw: string): string | undefined {
  const text = raw.replace(/\s+/g, ' ').toLowerCase();
  const head = text.slice(0, 600);
  for (const [title, id] of TITLED) if (title.test(head)) return typeof id === 'string' ? id : id(head);
  if (text.includes('this is free and unencumbered software released into the public domain')) return 'Unlicense';
  if (text.includes('permission is hereby granted, free of charge, to any person obtaining a copy')) {
    return text.includes('the above copyright notice and this permission notice shall be included') ? 'MIT' : 'MIT-0';
  }
  if (/permission to use, copy, modify, and(?:\/or)? distribute this software for any purpose with or without fee is hereby granted/.test(text)) {
    return /provided that the above copyright notice and this permission notice appear in all copies/.test(text) ? 'ISC' : '0BSD';
  }
  if (text.includes('redistribution and use in source and binary forms, with or without modification, are permitted')) {
    if (text.includes('advertising materials')) return 'BSD-4-Clause';
    // The third clause, in all its wordings, forbids using names "to endorse or promote" products.
    return text.includes('to endorse or promote') ? 'BSD-3-Clause' : 'BSD-2-Clause';
  }
  return undefined;
}

/**
 * `GPL-*` style patterns against ids, case-insensitively; a pattern without `*` names one licence
 * family. Patterns come from the config and ids from manifests, so the match runs in linear time.
 */
export function licenseMatches(id: string, pattern: string): boolean {
  const family = licenseFamily(id).toLowerCase();
  const wanted = pattern.trim().toLowerCase();
  if (!wanted.includes('*')) return family === licenseFamily(wanted) || id.toLowerCase() === wanted;
  return starPattern(wanted).test(id.toLowerCase());
}

/** Compiled `*` patterns by text: a policy's few patterns are tested against every dependency. */
const STAR_PATTERNS = new Map<string, Pick<SafeRegExp, 'test'>>();

function starPattern(wanted: string): Pick<SafeRegExp, 'test'> {
  let compiled = STAR_PATTERNS.get(wanted);
  if (!compiled) {
    const source = wanted
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    try {
      compiled = compileSafeRegExp(`^${source}$`);
    } catch {
      // Too large for the matcher (tens of thousands of characters): it matches nothing.
      compiled = { test: () => false };
    }
    if (STAR_PATTERNS.size >= 1_000) STAR_PATTERNS.clear();
    STAR_PATTERNS.set(wanted, compiled);
  }
  return compiled;
}
