// Which summaries are test code and which source modules hold code that runs: the populations
// every testing metric is a share of. Source modules are the product's (role `production`):
// benchmarks, examples, documentation sites and scripts are not what tests are owed to; test code
// is test files in the role `test` (not fixtures, not a benchmark kept in a test folder).
import { roleOfFile, type FileKind, type FileRole, type FileSummary } from '@codehealth/engine/kit';

/**
 * Fixtures and snapshots are classified as test files (so their planted problems are not reported
 * as source), but they are data that tests read, not tests: they neither test nor count as test code.
 */
const NOT_TEST_CODE_DIRS: ReadonlySet<string> = new Set(['fixtures', '__fixtures__', '__snapshots__']);

const CODE_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript', 'jsx']);

export function isTestCodePath(path: string): boolean {
  const dirs = path.split('/').slice(0, -1);
  return !dirs.some((dir) => NOT_TEST_CODE_DIRS.has(dir));
}

/** A test file that tests: its role says so, or, for a file without a role, its path. */
export function isTestFile(file: { path: string; kind: FileKind; role?: FileRole }): boolean {
  return file.kind === 'test' && (file.role ? file.role === 'test' : isTestCodePath(file.path));
}

export function isTestCode(summary: FileSummary): boolean {
  return isTestFile(summary) && !summary.skipped && CODE_LANGUAGES.has(summary.language);
}

export function isSourceCode(summary: FileSummary): boolean {
  return summary.kind === 'source' && roleOfFile(summary) === 'production' && !summary.skipped && CODE_LANGUAGES.has(summary.language);
}

const RUNTIME_SYMBOL_KINDS: ReadonlySet<string> = new Set(['function', 'method', 'class', 'enum', 'variable', 'namespace']);

/**
 * A module with something to execute: a function, or a runtime declaration. Modules of types and
 * interfaces only, and barrels that only re-export, have nothing a test could run.
 */
export function hasRuntimeCode(summary: FileSummary): boolean {
  if (summary.functions.length > 0) return true;
  return summary.module.symbols.some((symbol) => RUNTIME_SYMBOL_KINDS.has(symbol.kind));
}

/**
 * Names of the module's own exported functions: function declarations and `const f = () => …`
 * (a variable whose symbol range holds a function of that name). Re-exports are the declaring
 * module's, not this one's. Memoised per summary (structural coverage and untested-module both
 * ask); the variables and functions are indexed by name once, not searched per export.
 */
export function exportedFunctionNames(summary: FileSummary): readonly string[] {
  const memoised = functionNamesMemo.get(summary);
  if (memoised) return memoised;
  const names: string[] = [];
  let variables: Map<string, { lineStart: number; lineEnd: number }> | undefined;
  let functionLines: Map<string, number[]> | undefined;
  for (const record of summary.module.exports) {
    if (record.from !== undefined || record.typeOnly) continue;
    if (record.kind === 'function') {
      names.push(record.name);
      continue;
    }
    if (record.kind !== 'variable') continue;
    variables ??= firstVariables(summary);
    const symbol = variables.get(record.name);
    if (!symbol) continue;
    functionLines ??= functionStartLines(summary);
    const starts = functionLines.get(record.name);
    if (starts?.some((line) => line >= symbol.lineStart && line <= symbol.lineEnd)) names.push(record.name);
  }
  functionNamesMemo.set(summary, names);
  return names;
}

const functionNamesMemo = new WeakMap<FileSummary, readonly string[]>();

/** The first variable symbol of each name (what `symbols.find` by name and kind returns). */
function firstVariables(summary: FileSummary): Map<string, { lineStart: number; lineEnd: number }> {
  const byName = new Map<string, { lineStart: number; lineEnd: number }>();
  for (const symbol of summary.module.symbols) if (symbol.kind === 'variable' && !byName.has(symbol.name)) byName.set(symbol.name, symbol);
  return byName;
}

function functionStartLines(summary: FileSummary): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  for (const fn of summary.functions) {
    const lines = byName.get(fn.name);
    if (lines) lines.push(fn.lineStart);
    else byName.set(fn.name, [fn.lineStart]);
  }
  return byName;
}

/**
 * Exported classes with behaviour (at least one method or accessor with a body) run code too; untested-module
 * counts them with functions. Classes of fields only are data shapes, like interfaces. Memoised
 * per summary, like `exportedFunctionNames`.
 */
export function exportedClassNames(summary: FileSummary): readonly string[] {
  const memoised = classNamesMemo.get(summary);
  if (memoised) return memoised;
  const classes = summary.module.exports.filter((record) => record.from === undefined && record.kind === 'class');
  // Most modules export no class: their symbols are not read.
  let names: string[] = [];
  if (classes.length > 0) {
    const withMethods = new Set(summary.module.symbols.filter((s) => s.kind === 'method' && s.container).map((s) => s.container));
    // A method with a body: an abstract class of abstract members only (hono's FetchEventLike) has no code to run.
    const withBodies = new Set(summary.functions.map((fn) => fn.name.slice(0, Math.max(0, fn.name.indexOf('.')))));
    names = classes.filter((record) => withMethods.has(record.name) && withBodies.has(record.name)).map((record) => record.name);
  }
  classNamesMemo.set(summary, names);
  return names;
}

const classNamesMemo = new WeakMap<FileSummary, readonly string[]>();

/** Directories of hand-written test doubles and their inputs, which tests read or swap in rather than test. */
const DOUBLES_DIRS: ReadonlySet<string> = new Set(['mocks', 'mock', '__mocks__', 'stubs', 'fakes']);

export function isInDoublesDirectory(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((dir) => DOUBLES_DIRS.has(dir));
}

/** Schema migrations and seeds (knex, typeorm, sequelize): a runner applies them once; they are checked by migrating, not by unit tests. */
const MIGRATION_DIR = /^(?:migrations?|[\w-]*_migrations|seeds?|seeders)$/i;

export function isInMigrationsDirectory(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((dir) => MIGRATION_DIR.test(dir));
}
