// Which files the size and structure rules judge: the product's code, its tests and its tooling
// (`MAINTAINED_ROLES`, declared as each rule's `meta.roles`, so the engine does not run them on
// other files). A documentation site's assets (often vendored bundles such as a UMD build of React or
// CodeMirror copied into `docs/assets/`), generated and vendored files, test fixtures, benchmarks (a
// scenario per function) and examples (demo components) are not; nor is a minified file in any role.
import type { FileRole } from '@codehealth/engine/kit';

export const MAINTAINED_ROLES: FileRole[] = ['production', 'test', 'tooling'];

/** A line this long is not written by hand: a minified or bundled file (a docs app's copy of a library). */
const MINIFIED_LINE = 500;

// Several rules ask about the same file one after another: the last answer is kept.
let lastSource: string | undefined;
let lastAnswer = false;

export function isMinified(source: string): boolean {
  if (source === lastSource) return lastAnswer;
  let answer = false;
  for (let start = 0; start < source.length;) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    if (end - start > MINIFIED_LINE) {
      answer = true;
      break;
    }
    start = end + 1;
  }
  lastSource = source;
  lastAnswer = answer;
  return answer;
}
