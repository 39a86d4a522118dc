// Tests of what runs in worker threads, or in a plain Node process, need the built packages: a
// worker thread runs the engine's built worker script and loads the built plugin (plain
// JavaScript), while everything else under vitest runs from the TypeScript sources. Without a build
// such a test used to skip without a word, or pass having compared in-process work with itself.
// Here the need is said: in CI (CI=true, where `npm test` builds first) a missing build fails the
// file; elsewhere the test is skipped with a message naming what is missing and the command.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../', import.meta.url);

/** What worker threads and plain-Node examples load: the engine's entry, its worker script and kit, the built-in analyzers. */
export const BUILT_FOR_WORKERS = {
  engine: new URL('packages/engine/dist/index.js', ROOT),
  workerScript: new URL('packages/engine/dist/pipeline/file-worker.js', ROOT),
  kit: new URL('packages/engine/dist/kit.js', ROOT),
  analyzers: new URL('packages/analyzers/dist/index.js', ROOT),
} as const;

/** The built files that are missing, as paths relative to the repository root. */
export function missingBuild(files: readonly URL[] = Object.values(BUILT_FOR_WORKERS)): string[] {
  return files.filter((url) => !existsSync(fileURLToPath(url))).map((url) => url.href.slice(ROOT.href.length));
}

/**
 * True when the test should be skipped for want of a build (say so with `describe.skipIf`). Prints
 * why once per call site; throws in CI, where a skipped worker test would hide a broken build.
 */
export function skipWithoutBuild(what: string, files?: readonly URL[]): boolean {
  const missing = missingBuild(files);
  if (missing.length === 0) return false;
  const reason = `${what} needs the built packages (missing: ${missing.join(', ')}); run \`npx tsc -b\``;
  if (process.env.CI) throw new Error(reason);
  console.warn(`skipped: ${reason}`);
  return true;
}
