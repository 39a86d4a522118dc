// Lists the files of a directory that is not a git work tree, applying .gitignore files the way
// git does: every level's .gitignore, deeper files overriding shallower ones, `.git/info/exclude`
// below them all, and no way back into a directory once it is ignored.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { safeIgnore } from '../patterns/safe-ignore.js';

/** Directories never listed, whatever the ignore rules say. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

interface IgnoreLayer {
  /** Directory of the rules, relative to the root ('' for the root). */
  base: string;
  rules: Ignore;
}

async function readRules(file: string): Promise<Ignore | undefined> {
  try {
    return safeIgnore().add(await readFile(file, 'utf8'));
  } catch {
    // A missing or unreadable .gitignore has no rules; git behaves the same.
    return undefined;
  }
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
  const infoExclude = await readRules(join(root, '.git', 'info', 'exclude'));
  if (infoExclude) rootLayers.push({ base: '', rules: infoExclude });

  const visit = async (dir: string, inherited: readonly IgnoreLayer[]): Promise<void> => {
    const absolute = dir === '' ? root : join(root, dir);
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
    let layers = inherited;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const rules = await readRules(join(absolute, '.gitignore'));
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
