// The rule's promise: the same findings as eslint-plugin-sonarjs's no-duplicated-branches (S1871)
// and no-identical-conditions (S1862) on real code, this repository's sources and rxjs 7.8.2.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runRule } from '@codehealth/engine/testing';
import { listTypeScriptFiles } from '../../../../../test/compare/cognitive-complexity.js';
import { obtainRxjs } from '../../../../../test/helpers/corpora.js';
import { codeSmell } from '../index.js';

const require = createRequire(import.meta.url);

const SNIPPETS = [
  'if (a) {\n  f();\n  g();\n} else if (b) {\n  f();\n  g();\n}',
  'if (a) { f(); } else if (b) { f(); }',
  'if (a) { f(); } else if (b) { f(); } else { f(); }',
  'if (a) {\n  f();\n} else {\n  f();\n}',
  'if (a) f();\nelse if (b) f();',
  'if (a) {\n  f(1);\n  g();\n} else if (b) {\n  f(2);\n  g();\n}',
  'if (a) {\n  f(); // one\n  g();\n} else if (b) {\n  f();   /* two */ g();\n}',
  'if (a) { x = {\n}; } else if (b) { x = {\n}; } else { y(); }',
  'if (x === 1) {} else if (x === 2) {} else if (x === 1) {}',
  'if (a) {} else if (a && b) {}',
  'if (a || b) {} else if (b) {}',
  'if (b) {} else if (a || b) {}',
  'if (a) {} else if (b) {} else if ((a || b) && c) {}',
  'if (a && b) {} else if (b && a) {}',
  'if ((a)) {} else if (a) {}',
  'if (next()) {} else if (next()) {}',
  'switch (v) {\n  case 1:\n    f();\n    g();\n    break;\n  case 2:\n    f();\n    g();\n    break;\n}',
  'switch (v) {\n  case 1: f(); break;\n  case 2: f(); break;\n}',
  'switch (v) {\n  case 1: f(); break;\n  case 2: f(); break;\n  default: f();\n}',
  'switch (v) {\n  case 1:\n  case 2: {\n    f();\n    g();\n    break;\n  }\n  case 3:\n    f();\n    g();\n}',
  'switch (v) {\n  case "a": f(); break;\n  case "b": g(); break;\n  case "a": h(); break;\n}',
  'switch (v) {\n  case 1:\n    return f(\n      1);\n  default:\n    return f(\n      1);\n}',
];
/** Findings both tools report on the snippets above (a failing comparison lists the differences). */
const EXPECTED_SNIPPET_FINDINGS = 25;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

type Verify = (source: string, file: string) => Array<{ line: number; ruleId: string | null; fatal?: boolean; message: string }>;

function createVerifier(): Verify {
  const { Linter } = require('eslint');
  const sonarjs = require('eslint-plugin-sonarjs');
  const tseslint = require('typescript-eslint');
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parser: tseslint.parser },
      linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
      plugins: { sonarjs },
      rules: { 'sonarjs/no-duplicated-branches': 'error', 'sonarjs/no-identical-conditions': 'error' },
    },
  ];
  return (source, file) => linter.verify(source, config, { filename: file });
}

/** Findings as `rule@line`: duplicated code is S1871, a covered condition or a repeated case S1862. */
function ours(source: string, file: string): string[] {
  return runRule(codeSmell, 'duplicated-branches', { code: source, filename: file })
    .map((f) => `${f.title.startsWith('Duplicated') ? 'no-duplicated-branches' : 'no-identical-conditions'}@${f.anchor.lineStart}`)
    .sort();
}

interface Comparison {
  files: number;
  findings: number;
  disagreements: string[];
}

function compare(base: string, files: readonly string[]): Comparison {
  const verify = createVerifier();
  const result: Comparison = { files: 0, findings: 0, disagreements: [] };
  for (const path of files) {
    const source = readFileSync(path, 'utf8');
    const file = relative(base, path);
    const messages = verify(source, file);
    // A file ESLint cannot parse has nothing to compare against.
    if (messages.some((m) => m.fatal)) continue;
    result.files++;
    const theirs = messages
      .filter((m) => m.ruleId?.startsWith('sonarjs/'))
      .map((m) => `${m.ruleId!.slice(8)}@${m.line}`)
      .sort();
    const mine = ours(source, file);
    result.findings += new Set([...theirs, ...mine]).size;
    for (const key of theirs) if (!mine.includes(key)) result.disagreements.push(`${file}: sonarjs only ${key}`);
    for (const key of mine) if (!theirs.includes(key)) result.disagreements.push(`${file}: ours only ${key}`);
  }
  return result;
}

describe('duplicated-branches agrees with eslint-plugin-sonarjs', () => {
  it('on this repository (packages/*/src)', () => {
    const packages = join(root, 'packages');
    const files = readdirSync(packages).flatMap((name) => listTypeScriptFiles(join(packages, name, 'src')));
    const result = compare(root, files);
    expect(result.files).toBeGreaterThan(150);
    expect(result.disagreements).toEqual([]);
  });

  it('on rxjs 7.8.2 src: no findings, as sonarjs', (context) => {
    const corpus = obtainRxjs();
    if (corpus.error !== undefined) {
      console.warn(`SKIPPED: ${corpus.error}`);
      return context.skip();
    }
    const src = join(corpus.root, 'src');
    const result = compare(src, listTypeScriptFiles(src));
    expect(result.files).toBeGreaterThan(240);
    expect(result.disagreements).toEqual([]);
    expect(result.findings).toBe(0);
  });

  it('on snippets that exercise every branch of both rules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codehealth-branches-'));
    try {
      const files = SNIPPETS.map((code, i) => {
        const path = join(dir, `snippet-${i}.ts`);
        writeFileSync(path, code);
        return path;
      });
      const result = compare(dir, files);
      expect(result.files).toBe(SNIPPETS.length);
      expect(result.disagreements).toEqual([]);
      expect(result.findings).toBe(EXPECTED_SNIPPET_FINDINGS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
