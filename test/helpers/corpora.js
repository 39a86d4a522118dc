// Real open-source code bases for accuracy tests, comparisons and the benchmark: npm packages that
// ship their TypeScript sources, fetched once with `npm pack` into the OS temp directory and reused.
// Plain JavaScript so that the benchmark (plain Node) and the tests (vitest) share it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Unpacks `name@version` into `<tmp>/codehealth-corpora/<name>-<version>/package` and returns
 * `{ root }`, or `{ error }` with the reason it could not be had (registry unreachable). Safe when
 * several test processes ask at once: each unpacks privately and renames into place.
 * @param {string} name
 * @param {string} version
 * @param {string} [marker] a file whose presence means the package is unpacked
 * @returns {{ root: string, error?: undefined } | { root?: undefined, error: string }}
 */
export function obtainNpmPackage(name, version, marker = 'package.json') {
  const safe = `${name.replace('/', '+')}-${version}`;
  const cacheRoot = join(tmpdir(), 'codehealth-corpora', safe);
  const root = join(cacheRoot, 'package');
  if (existsSync(join(root, marker))) return { root };
  const work = mkdtempSync(join(tmpdir(), 'codehealth-corpus-'));
  try {
    const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      timeout: 180_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim().split('\n').pop();
    execFileSync('tar', ['xzf', join(work, tarball), '-C', work], { timeout: 120_000, stdio: 'pipe' });
    mkdirSync(cacheRoot, { recursive: true });
    try {
      renameSync(join(work, 'package'), root);
    } catch (error) {
      if (!existsSync(join(root, marker))) throw error;
    }
    return { root };
  } catch (error) {
    return { error: `${name}@${version} could not be obtained with npm pack: ${String(error.message).split('\n')[0]}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** rxjs 7.8.2: 21k lines of TypeScript in `src`, no parse errors (NOTES.md). */
export function obtainRxjs() {
  return obtainNpmPackage('rxjs', '7.8.2', 'src/index.ts');
}

/** effect 3.22.4: 235k lines of TypeScript in `src`, the benchmark's large corpus (NOTES.md). */
export function obtainEffect() {
  return obtainNpmPackage('effect', '3.22.4', 'src/index.ts');
}
