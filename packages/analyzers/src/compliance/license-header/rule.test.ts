import { describe, expect, it } from 'vitest';
import { AnalyzerTester } from '@codehealth/engine/testing';
import { compliance } from '../index.js';
import { licenseHeader, normaliseHeaderText } from './rule.js';

const header = { header: 'Copyright (c) Acme Corp.\nLicensed under the Apache License, Version 2.0.' };
const pattern = { pattern: 'Copyright \\(c\\) 20\\d\\d Acme' };

new AnalyzerTester(compliance).run('license-header', {
  valid: [
    { code: 'export const a = 1;\n', name: 'inactive without configuration' },
    {
      code: '/*\n * Copyright (c) Acme Corp.\n * Licensed under the Apache License,\n *   Version 2.0.\n */\nexport const a = 1;\n',
      options: header,
      name: 'block comment, rewrapped',
    },
    {
      code: '#!/usr/bin/env node\n// Copyright (c) Acme Corp.\n// Licensed under the Apache License, Version 2.0.\nexport {};\n',
      options: header,
      name: 'after a shebang, line comments',
    },
    { code: '// Copyright (c) 2024 Acme Inc.\nexport const b = 2;\n', options: pattern, name: 'pattern with a year' },
    { code: '', options: header, name: 'empty file' },
    { code: "it('works', () => {});\n", filename: 'src/a.test.ts', options: header, name: 'tests are not source' },
  ],
  invalid: [
    {
      code: "import x from 'x';\nexport const a = x;\n",
      options: header,
      findings: [{ line: 1, endLine: 1, title: 'Missing licence header in example.ts', severity: 'low', data: { lines: 30 } }],
    },
    {
      code: '// Copyright (c) Acme Corp.\nexport const a = 1;\n',
      options: header,
      name: 'half a header is not the header',
      findings: [{ line: 1 }],
    },
    {
      code: '// Copyright (c) 1999 Acme Inc.\nexport const b = 2;\n',
      options: pattern,
      name: 'a pattern that does not match',
      findings: [{ line: 1, title: 'Missing licence header in example.ts' }],
    },
    {
      // RegExp backtracks for ages on this (2^5000 ways to split the a's); the rule answers at once.
      code: `// ${'a'.repeat(5_000)}!\nexport const c = 3;\n`,
      options: { pattern: '^// (a+)+$' },
      name: 'a pattern from the config that would backtrack catastrophically',
      findings: [{ line: 1 }],
    },
    {
      code: `${'\n'.repeat(5)}// Copyright (c) Acme Corp.\n// Licensed under the Apache License, Version 2.0.\n`,
      options: { ...header, lines: 5 },
      name: 'only the first `lines` lines count',
      findings: [{ line: 1, data: { lines: 5 } }],
    },
  ],
});

describe('license-header options', () => {
  it('refuses a pattern the linear-time matcher cannot run, saying why', () => {
    const parsed = licenseHeader.meta.options.safeParse({ pattern: '(Acme|ACME) \\1' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toMatch(/uses backreferences, which the linear-time matcher does not support/);
    expect(licenseHeader.meta.options.safeParse({ pattern: '(?<!Old )Acme' }).success).toBe(true);
  });
});

describe('normaliseHeaderText', () => {
  it('drops comment markers and collapses whitespace', () => {
    expect(normaliseHeaderText('/**\n * Copyright  X\n *   Licensed\n */')).toBe('Copyright X Licensed');
    expect(normaliseHeaderText('// a\n//   b')).toBe('a b');
  });
});
