// What a script's code imports is the script's too. A release script run from a workflow
// (`node ./bin/pr.js`) pulls in its helpers (`bin/repo.js`, `bin/GithubAPI.js`); nothing runs those
// helpers directly, so without this they would be graded as the product's code. The run role is
// passed along relative imports, read from the text (no parse: roles are decided before parsing),
// to files that would otherwise be production: code outside a source root that no manifest names
// as the package's own. A file already run by a script keeps the role that script gave it.
import { posix } from 'node:path';
import type { RepoFile } from './types.js';
import { decodeText, type RepositoryFiles } from './repository-files.js';
import { isFixturePath, placeOf, type PlaceContext } from './role-places.js';
import type { ScriptRole } from './run-commands.js';

/** A script larger than this is not read for its imports. */
const MAX_SCRIPT_BYTES = 512 * 1024;
/** Relative specifiers of `import … from`, `export … from`, `import(…)`, `require(…)` and bare `import '…'`. */
const RELATIVE_SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"])(\.{1,2}\/[^'"\n]{1,300})\1/g;
const CODE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS = new Map([
  ['.js', ['.ts', '.tsx']],
  ['.mjs', ['.mts']],
  ['.cjs', ['.cts']],
  ['.jsx', ['.tsx']],
]);

/** The relative specifiers a file's text imports or requires. */
export function relativeSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(RELATIVE_SPECIFIER)) out.push(match[2]);
  return out;
}

/** The inventory path a relative specifier of `from` names, if any (extensions and index files tried like a bundler). */
export function resolveRelative(from: string, specifier: string, exists: (path: string) => boolean): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier.split(/[?#]/)[0]));
  if (base.startsWith('..')) return undefined;
  const ext = posix.extname(base);
  const candidates = [base];
  for (const ts of JS_TO_TS.get(ext) ?? []) candidates.push(base.slice(0, -ext.length) + ts);
  for (const e of CODE_EXTENSIONS) candidates.push(base + e);
  for (const e of CODE_EXTENSIONS) candidates.push(`${base}/index${e}`);
  return candidates.find(exists);
}

/** A tool's configuration written as code (`xo.config.js`, `eslint.config.mjs`, `vite.config.ts`): what it imports is the tool's. */
const CODE_CONFIG = /(?:^|\/)[^/]+\.config\.[mc]?[jt]s$/i;

/**
 * Adds to `runs` the files that run files (and tools' code configurations, as `tooling`) import,
 * transitively, with the role of the file that reached them first: source code outside a source
 * root and not a package entry.
 */
export function followRunImports(
  runs: Map<string, ScriptRole>,
  files: readonly RepoFile[],
  reader: RepositoryFiles,
  context: PlaceContext,
  entries: ReadonlySet<string>,
): void {
  const configs = files.filter((f) => f.kind === 'config' && !f.skipReason && CODE_CONFIG.test(f.path) && !isFixturePath(f.path));
  const byPath = new Map(files.map((f) => [f.path, f]));
  const eligible = (path: string): boolean => {
    const file = byPath.get(path);
    return file !== undefined && file.kind === 'source' && !file.skipReason && !entries.has(path) && !placeOf(path, context).inSource;
  };
  const roleOf = new Map<string, ScriptRole>(configs.map((f) => [f.path, 'tooling']));
  const queue = [...runs.keys()].filter((path) => byPath.get(path)?.kind === 'source');
  queue.push(...roleOf.keys());
  for (let i = 0; i < queue.length; i++) {
    const path = queue[i];
    const role = runs.get(path) ?? roleOf.get(path)!;
    const read = reader.readSync(path, { links: 'never', maxBytes: MAX_SCRIPT_BYTES });
    if (!read.ok) continue;
    for (const specifier of relativeSpecifiers(decodeText(read.bytes))) {
      const target = resolveRelative(path, specifier, (p) => byPath.has(p));
      if (target === undefined || runs.has(target) || !eligible(target)) continue;
      runs.set(target, role);
      queue.push(target);
    }
  }
}
