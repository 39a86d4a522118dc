// Which files the size and structure rules judge: the product's code and its tooling. A
// documentation site's assets (often vendored bundles such as a UMD build of React or CodeMirror
// copied into `docs/assets/`), generated and vendored files, test fixtures, benchmarks (a scenario
// per function) and examples (demo components) are not.
import { roleOfFile, type RepoFile } from '@codehealth/engine/kit';

const NOT_MAINTAINED: ReadonlySet<string> = new Set(['docs', 'vendored', 'generated', 'fixture', 'benchmark', 'example']);

export function isMaintainedCode(file: Pick<RepoFile, 'path' | 'kind' | 'role'>): boolean {
  return !NOT_MAINTAINED.has(roleOfFile(file));
}
