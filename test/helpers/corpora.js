// Real open-source code bases for accuracy tests, comparisons and the benchmark: npm packages that
// ship their TypeScript sources, fetched once with `npm pack` into the OS temp directory and reused.
// Plain JavaScript so that the benchmark (plain Node) and the tests (vitest) share it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
    })
      .trim()
      .split('\n')
      .pop();
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

/**
 * Packages whose `src` make up the large corpus, about 480k lines of TypeScript: effect, the
 * OpenAI SDK, zod, rxjs and four packages of Temporal's SDK (versions as in this repository's lockfile).
 */
const LARGE_CORPUS = [
  ['effect', '3.22.4'],
  ['openai', '6.49.0'],
  ['zod', '4.6.7'],
  ['rxjs', '7.8.2'],
  ['@temporalio/client', '1.24.0'],
  ['@temporalio/common', '1.24.0'],
  ['@temporalio/worker', '1.24.0'],
  ['@temporalio/workflow', '1.24.0'],
];

/**
 * The large corpus for the memory benchmark: each package's `src` and package.json side by side in
 * `<tmp>/codehealth-corpora/large-480k/<package>/`, assembled once (privately, then renamed).
 * @returns {import('./corpora.d.ts').Corpus}
 */
export function obtainLargeCorpus() {
  const root = join(tmpdir(), 'codehealth-corpora', 'large-480k');
  if (existsSync(join(root, '.complete'))) return { root };
  const work = mkdtempSync(join(tmpdir(), 'codehealth-corpus-'));
  try {
    for (const [name, version] of LARGE_CORPUS) {
      const corpus = obtainNpmPackage(name, version, 'src');
      if (corpus.error !== undefined) return corpus;
      const target = join(work, 'large', name.replace('/', '+'));
      cpSync(join(corpus.root, 'src'), join(target, 'src'), { recursive: true });
      cpSync(join(corpus.root, 'package.json'), join(target, 'package.json'));
    }
    writeFileSync(join(work, 'large', '.complete'), LARGE_CORPUS.map(([n, v]) => `${n}@${v}`).join('\n'));
    mkdirSync(join(tmpdir(), 'codehealth-corpora'), { recursive: true });
    try {
      renameSync(join(work, 'large'), root);
    } catch (error) {
      if (!existsSync(join(root, '.complete'))) throw error;
    }
    return { root };
  } catch (error) {
    return { error: `the large corpus could not be assembled: ${String(error.message).split('\n')[0]}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
