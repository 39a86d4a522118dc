// Which files the size and structure rules judge: the product's code and its tooling. A
// documentation site's assets (often vendored bundles such as a UMD build of React or CodeMirror
// copied into `docs/assets/`), minified files, generated and vendored files, test fixtures, benchmarks (a scenario
// per function) and examples (demo components) are not.
import { roleOfFile, type RepoFile } from '@codehealth/engine/kit';

const NOT_MAINTAINED: ReadonlySet<string> = new Set(['docs', 'vendored', 'generated', 'fixture', 'benchmark', 'example']);

/** A line this long is not written by hand: a minified or bundled file (a docs app's copy of a library). */
const MINIFIED_LINE = 500;

export function isMinified(source: string): boolean {
  let start = 0;
  while (start < source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    if (end - start > MINIFIED_LINE) return true;
    start = end + 1;
  }
  return false;
}

export function isMaintainedCode(file: Pick<RepoFile, 'path' | 'kind' | 'role'>, source: string): boolean {
  return !NOT_MAINTAINED.has(roleOfFile(file)) && !isMinified(source);
}
