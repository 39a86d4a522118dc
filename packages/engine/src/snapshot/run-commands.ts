// What package.json scripts and CI workflows run: the files (and, for some scripts, directories)
// their commands name, and the role a script's name gives them (`bench` runs benchmarks, `release`
// is tooling, `start` runs the product). Commands are read, never run: a word of a command that is
// the path of a listed file (relative to the package, or to the repository root for a workflow)
// is a file the command runs, whatever runs it (node, tsx, bash, vite-node...).
import { posix } from 'node:path';
import type { PlaceRole } from './role-places.js';

/** What a script's files are; undefined: the script runs the product itself (or installs it for its users). */
export type ScriptRole = PlaceRole | 'test';

const PRODUCT_SCRIPT = /^(?:pre|post)?(?:start|dev|serve|preview|watch|main|install|preinstall|postinstall)(?:[:_-]|$)/;
const BENCH_SCRIPT = /bench|perf/;
const TEST_SCRIPT = /^(?:pre|post)?test(?:[:_-]|$)/;
const EXAMPLE_SCRIPT = /example|demo|playground/;
const DOCS_SCRIPT = /^(?:pre|post)?(?:docs?|storybook|site|website)(?:[:_-]|$)/;

/** The role of the files a script runs, from the script's name. */
export function scriptRole(name: string): ScriptRole | undefined {
  const n = name.toLowerCase();
  if (PRODUCT_SCRIPT.test(n)) return undefined;
  if (BENCH_SCRIPT.test(n)) return 'benchmark';
  if (TEST_SCRIPT.test(n)) return 'test';
  if (EXAMPLE_SCRIPT.test(n)) return 'example';
  if (DOCS_SCRIPT.test(n)) return 'docs';
  return 'tooling';
}

/** Words of a shell command: split at blanks and operators, quotes dropped, `--opt=value` read as its value. */
function wordsOf(command: string): string[] {
  const words: string[] = [];
  for (const raw of command.split(/[\s;&|()<>`]+/)) {
    let word = raw.replace(/^['"]+|['"]+$/g, '');
    const equals = word.indexOf('=');
    if (word.startsWith('-') && equals > 0) word = word.slice(equals + 1);
    // Options, absolute and home paths, variables, globs and URLs name nothing of the repository.
    if (word === '' || /^[-/~]/.test(word) || /[$*?{}\\]|:\/\//.test(word)) continue;
    words.push(word.replace(/^\.\//, '').replace(/\/+$/, ''));
  }
  return words;
}

export interface CommandTargets {
  files: string[];
  dirs: string[];
}

/**
 * The listed files and directories a command names, its words resolved from `dir` ('' for the
 * repository root). `isFile` and `isDir` answer for repository-relative paths.
 */
export function commandTargets(command: string, dir: string, isFile: (path: string) => boolean, isDir: (path: string) => boolean): CommandTargets {
  const files: string[] = [];
  const dirs: string[] = [];
  for (const word of wordsOf(command)) {
    const path = posix.normalize(posix.join(dir === '' ? '.' : dir, word));
    if (path === '.' || path === '..' || path.startsWith('../')) continue;
    if (isFile(path)) files.push(path);
    else if (isDir(path)) dirs.push(path);
  }
  return { files, dirs };
}

const RUN_KEY = /^(\s*)(-\s+)?run:\s?(.*)$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*\s*(?:#.*)?$/;

/**
 * The `run:` commands of a GitHub Actions workflow (one line, or a `|`/`>` block), read line by
 * line: enough for what commands name, without a YAML parser.
 */
export function workflowRunCommands(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  const commands: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = RUN_KEY.exec(lines[i]);
    if (!match) continue;
    const value = match[3].trim();
    if (!BLOCK_SCALAR.test(value)) {
      if (value !== '') commands.push(value.replace(/^(['"])(.*)\1$/, '$2'));
      continue;
    }
    const keyColumn = match[1].length + (match[2]?.length ?? 0);
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1].trim() === '' || indentOf(lines[i + 1]) > keyColumn)) block.push(lines[++i]);
    commands.push(block.join('\n'));
  }
  return commands;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
