// A quick look before the inventory: does a directory hold enough code files to be worth starting
// worker threads while the files are listed? Ignore rules are not applied here, so the answer may
// be yes for a repository whose inventory turns out small (the pool is then closed unused); it is
// no for the small repositories that would otherwise boot workers for nothing.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const CODE_FILE = /\.(?:[cm]?[jt]sx?)$/;

export async function hasCodeFiles(root: string, min: number, maxDirs = 500): Promise<boolean> {
  let count = 0;
  let visited = 0;
  let level = [root];
  while (level.length > 0 && visited < maxDirs) {
    const batch = level.slice(0, maxDirs - visited);
    visited += batch.length;
    const listings = await Promise.all(batch.map((dir) => readdir(dir, { withFileTypes: true }).catch(() => [])));
    const next: string[] = [];
    for (let d = 0; d < batch.length; d++) {
      for (const entry of listings[d]) {
        if (entry.isDirectory()) {
          if (!entry.name.startsWith('.') && entry.name !== 'node_modules') next.push(join(batch[d], entry.name));
        } else if (CODE_FILE.test(entry.name) && ++count >= min) return true;
      }
    }
    level = next;
  }
  return false;
}
