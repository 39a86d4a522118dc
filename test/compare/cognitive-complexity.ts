// Compares our Cognitive Complexity with eslint-plugin-sonarjs's S3776 on the same files.
// Used by the agreement test in packages/analyzers and by `node test/compare/cognitive-complexity.mjs`.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { SyntaxNode } from 'tree-sitter';
import { parseSource } from '../../packages/engine/src/parsing/parser.js';
import { buildDispatcher, walkTree } from '../../packages/engine/src/parsing/walk.js';
import { createCognitiveComplexityVisitor } from '../../packages/analyzers/src/code-smell/cognitive-complexity/counter.js';
import { parentSkippingParentheses } from '../../packages/engine/src/parsing/functions.js';
import { obtainRxjs } from '../helpers/corpora.js';

const require = createRequire(import.meta.url);

export interface FunctionScore {
  /** Where sonarjs reports a function: 1-based line, 1-based column of its main token. */
  line: number;
  column: number;
  ours?: number;
  theirs?: number;
}

export interface FileComparison {
  file: string;
  scores: FunctionScore[];
}

export interface ComparisonReport {
  corpus: string;
  files: number;
  /** Functions that either tool scores above zero (sonarjs cannot show the others). */
  functions: number;
  agreed: number;
  /** agreed / functions, 1 when there is nothing to compare. */
  agreement: number;
  disagreements: Array<FunctionScore & { file: string }>;
  /** Files left out because ESLint could not parse them (nothing to compare against). */
  unparsed: Array<{ file: string; reason: string }>;
}

/** All `.ts`/`.tsx` files under `dir`, skipping declaration files, tests' fixtures and node_modules. */
export function listTypeScriptFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist' && entry.name !== 'fixtures') out.push(...listTypeScriptFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** rxjs 7.8.2's `src`, or undefined (and says why) when the registry is unreachable. */
export function obtainRxjsSources(log: (message: string) => void = console.log): string | undefined {
  const corpus = obtainRxjs();
  if (corpus.error !== undefined) {
    log(`${corpus.error}; comparison skipped`);
    return undefined;
  }
  return join(corpus.root, 'src');
}

/** sonarjs reports a function at its name, its key, its `function` keyword or its `=>` token. */
function mainTokenOf(fn: SyntaxNode): SyntaxNode {
  const keyOf = (key: SyntaxNode | null): SyntaxNode | null => (key?.type === 'computed_property_name' ? key.namedChild(0) : key);
  const token = (type: string): SyntaxNode | undefined => fn.children.find((child) => child.type === type);
  switch (fn.type) {
    case 'method_definition':
      return keyOf(fn.childForFieldName('name')) ?? fn;
    case 'arrow_function':
      return token('=>') ?? fn;
    case 'function_expression':
    case 'generator_function': {
      const parent = parentSkippingParentheses(fn);
      if (parent?.type === 'pair') return keyOf(parent.childForFieldName('key')) ?? fn;
      return token('function') ?? fn;
    }
    default:
      return fn.childForFieldName('name') ?? token('function') ?? fn;
  }
}

function languageOf(file: string): 'tsx' | 'typescript' | 'javascript' {
  if (/\.[cm]?jsx?$/.test(file)) return 'javascript';
  return file.endsWith('.tsx') ? 'tsx' : 'typescript';
}

export function ourScores(source: string, file: string): Map<string, number> {
  const scores = new Map<string, number>();
  const visitor = createCognitiveComplexityVisitor('sonarjs', ({ node, complexity }) => {
    if (complexity === 0) return;
    const token = mainTokenOf(node);
    scores.set(`${token.startPosition.row + 1}:${token.startPosition.column + 1}`, complexity);
  });
  walkTree(parseSource(source, languageOf(file)), buildDispatcher([visitor]));
  return scores;
}

type Verify = (source: string, file: string) => Array<{ line: number; column: number; message: string; ruleId: string | null; fatal?: boolean }>;

function createSonarjsVerifier(): Verify {
  const { Linter } = require('eslint');
  const sonarjs = require('eslint-plugin-sonarjs');
  const tseslint = require('typescript-eslint');
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.{ts,tsx,js,jsx,mjs,cjs}'],
      languageOptions: { parser: tseslint.parser },
      // `eslint-disable` comments in a corpus would hide some of sonarjs's scores.
      linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
      plugins: { sonarjs },
      rules: { 'sonarjs/cognitive-complexity': ['error', 0] },
    },
  ];
  return (source, file) => linter.verify(source, config, { filename: file });
}

/** sonarjs's scores by position, or the parse error that kept ESLint from scoring the file. */
export function theirScores(verify: Verify, source: string, file: string): Map<string, number> | string {
  const scores = new Map<string, number>();
  for (const message of verify(source, file)) {
    const complexity = /from (\d+) to/.exec(message.message)?.[1];
    if (message.ruleId === 'sonarjs/cognitive-complexity' && complexity) {
      scores.set(`${message.line}:${message.column}`, Number(complexity));
    } else if (message.fatal) {
      return `${message.line}:${message.column} ${message.message}`;
    }
  }
  return scores;
}

export function compareFiles(corpus: string, root: string, files: readonly string[]): ComparisonReport {
  const verify = createSonarjsVerifier();
  const report: ComparisonReport = { corpus, files: files.length, functions: 0, agreed: 0, agreement: 1, disagreements: [], unparsed: [] };
  for (const path of files) {
    const source = readFileSync(path, 'utf8');
    const file = relative(root, path);
    const theirs = theirScores(verify, source, file);
    // Counting a file sonarjs could not read would show phantom disagreements; list it instead.
    if (typeof theirs === 'string') {
      report.unparsed.push({ file, reason: theirs });
      continue;
    }
    const ours = ourScores(source, path);
    for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
      const [line, column] = key.split(':').map(Number);
      report.functions++;
      if (ours.get(key) === theirs.get(key)) report.agreed++;
      else report.disagreements.push({ file, line, column, ours: ours.get(key), theirs: theirs.get(key) });
    }
  }
  report.agreement = report.functions === 0 ? 1 : report.agreed / report.functions;
  return report;
}

export function formatReport(report: ComparisonReport): string {
  const percent = (report.agreement * 100).toFixed(2);
  const lines = [
    `cognitive-complexity vs sonarjs on ${report.corpus}: ${report.agreed}/${report.functions} functions agree (${percent}%) in ${report.files} files`,
  ];
  for (const u of report.unparsed) lines.push(`  ${u.file}: not compared, ESLint could not parse it (${u.reason})`);
  for (const d of report.disagreements) {
    lines.push(`  ${d.file}:${d.line}:${d.column} ours ${d.ours ?? 'none'} vs sonarjs ${d.theirs ?? 'none'}`);
  }
  return lines.join('\n');
}
