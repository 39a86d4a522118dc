// Lists the files of a directory that is not a git work tree, applying .gitignore files the way
// git does: every level's .gitignore, deeper files overriding shallower ones, `.git/info/exclude`
// below them all, and no way back into a directory once it is ignored.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { safeIgnore } from '../patterns/safe-ignore.js';
import { decodeText, repositoryFiles, type RepositoryFiles } from './repository-files.js';

/** Directories never listed, whatever the ignore rules say. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

interface IgnoreLayer {
  /** Directory of the rules, relative to the root ('' for the root). */
  base: string;
  rules: Ignore;
}

/** Ignore files past this size are not read: no real one comes near it. */
const MAX_RULES_BYTES = 4 * 1024 * 1024;

/** Like git, a .gitignore that is a symbolic link is not read (`.git/info/exclude` may be one, inside the root). */
async function readRules(files: RepositoryFiles, path: string, links: 'inside' | 'never'): Promise<Ignore | undefined> {
  const read = await files.read(path, { links, maxBytes: MAX_RULES_BYTES });
  // A missing or unreadable .gitignore has no rules; git behaves the same.
  return read.ok ? safeIgnore().add(decodeText(read.bytes)) : undefined;
}

function isIgnored(layers: readonly IgnoreLayer[], path: string, isDirectory: boolean): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const { base, rules } = layers[i];
    const relative = base === '' ? path : path.slice(base.length + 1);
    const result = rules.test(isDirectory ? `${relative}/` : relative);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * Repository-relative POSIX paths of the regular files under `root`, unsorted. Symbolic links are
 * skipped (never followed), as are unreadable directories. `exclude` prunes like a .gitignore.
 */
export async function walkDirectory(root: string, exclude: Ignore = safeIgnore()): Promise<string[]> {
  const found: string[] = [];
  const rootLayers: IgnoreLayer[] = [];
  const files = repositoryFiles(root);
  const infoExclude = await readRules(files, '.git/info/exclude', 'inside');
  if (infoExclude) rootLayers.push({ base: '', rules: infoExclude });

  const visit = async (dir: string, inherited: readonly IgnoreLayer[]): Promise<void> => {
    const absolute = dir === '' ? root : join(root, dir);
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
    let layers = inherited;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const rules = await readRules(files, dir === '' ? '.gitignore' : `${dir}/.gitignore`, 'never');
      if (rules) layers = [...inherited, { base: dir, rules }];
    }
    const subdirectories: Promise<void>[] = [];
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED_DIRS.has(entry.name)) continue;
        if (exclude.ignores(`${path}/`) || isIgnored(layers, path, true)) continue;
        subdirectories.push(visit(path, layers));
      } else if (entry.isFile()) {
        if (exclude.ignores(path) || isIgnored(layers, path, false)) continue;
        found.push(path);
      }
    }
    await Promise.all(subdirectories);
  };

  await visit('', rootLayers);
  return found;
}
