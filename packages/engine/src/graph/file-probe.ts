// Finds the repository file a path-like specifier denotes, the way TypeScript does for the files
// it knows: `.js` written for a `.ts` source, extension probing, then directory entry points.
import { posix } from 'node:path';

/** TS's ESM convention: the specifier names the emitted file; the source has the TS extension. */
const EMITTED_TO_SOURCE: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx', '.d.ts'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

/**
 * Extensions tried for an extensionless specifier, TS sources first. Declarations come last: a
 * `.d.ts` next to a `.js` describes it, and the graph wants the code.
 */
export const PROBE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts', '.d.mts', '.d.cts'];

const ENTRY_FIELDS = ['source', 'types', 'typings', 'module', 'main'];

export type ReadJson = (path: string) => unknown;

/** Whether a repository-relative path left the repository (`../x` from the root). */
export function isOutside(path: string): boolean {
  return path === '..' || path.startsWith('../') || path.startsWith('/');
}

/** An empty, `.` or `..` segment: a path that normalising would change. */
const UNNORMALISED_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** Joins and normalises a repository-relative path; the root is `''`. */
export function joinPath(dir: string, relative: string): string {
  // Most joins are of plain segments (`./dist/x.js` in `packages/a`): no normalising needed.
  const rest = relative.startsWith('./') ? relative.slice(2) : relative;
  if (!UNNORMALISED_SEGMENT.test(rest) && (dir === '' || !UNNORMALISED_SEGMENT.test(dir))) return dir === '' ? rest : `${dir}/${rest}`;
  const joined = posix.normalize(posix.join(dir || '.', relative));
  if (joined === '.' || joined === './') return '';
  return joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export class FileProbe {
  /** Directories holding a file (at any depth), the root as `''`: a path outside them names nothing. */
  private dirs?: Set<string>;
  /** Answers by path (null: nothing): the same candidates come back from many specifiers. */
  private readonly answers = new Map<string, string | null>();

  constructor(
    readonly files: ReadonlySet<string>,
    private readonly readJson: ReadJson,
  ) {}

  /** The file `path` (repository-relative, normalised) refers to, or undefined. */
  resolve(path: string): string | undefined {
    if (isOutside(path)) return undefined;
    let answer = this.answers.get(path);
    if (answer === undefined) {
      // Neither a file of its directory nor a directory: nothing to probe or remember (most of the
      // dead-code model's candidates of `exports` patterns end here).
      if (!this.hasDir(dirOf(path)) && !this.hasDir(path)) return undefined;
      answer = this.resolveAsFile(path) ?? this.resolveAsDirectory(path) ?? null;
      this.answers.set(path, answer);
    }
    return answer ?? undefined;
  }

  private hasDir(dir: string): boolean {
    if (!this.dirs) {
      this.dirs = new Set(['']);
      for (const file of this.files) {
        for (let dir = dirOf(file); dir !== '' && !this.dirs.has(dir); dir = dirOf(dir)) this.dirs.add(dir);
      }
    }
    return this.dirs.has(dir);
  }

  resolveAsFile(path: string): string | undefined {
    const { files } = this;
    // Every name tried lies in the directory of `path`, or in `path` itself read as a stem.
    if (!this.hasDir(dirOf(path))) return undefined;
    const ext = posix.extname(path);
    const sources = EMITTED_TO_SOURCE[ext];
    if (sources) {
      const stem = path.slice(0, -ext.length);
      for (const source of sources) if (files.has(stem + source)) return stem + source;
    }
    if (ext && files.has(path)) return path;
    for (const probe of PROBE_EXTENSIONS) if (files.has(path + probe)) return path + probe;
    return undefined;
  }

  resolveAsDirectory(path: string): string | undefined {
    // Its package.json and index files would be files of the directory.
    if (!this.hasDir(path)) return undefined;
    const prefix = path === '' ? '' : `${path}/`;
    const manifest = this.readJson(`${prefix}package.json`);
    if (isObject(manifest)) {
      for (const field of ENTRY_FIELDS) {
        const entry = manifest[field];
        if (typeof entry !== 'string') continue;
        const target = joinPath(path, entry);
        const found = this.resolveAsFile(target) ?? this.resolveIndex(target);
        if (found) return found;
      }
    }
    return this.resolveIndex(path);
  }

  private resolveIndex(path: string): string | undefined {
    const base = path === '' ? 'index' : `${path}/index`;
    for (const probe of PROBE_EXTENSIONS) if (this.files.has(base + probe)) return base + probe;
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
