// What a loaded plugin's code is, as one string: the summary cache, the kept run states and the run
// provenance are keyed by it, so that upgrading a plugin (or rebuilding it with other code)
// never serves per-file facts or findings its previous code made.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/** Module files whose text is the plugin's code (declaration files are not). */
const CODE_FILE = /\.(?:[cm]?js|[cm]?ts|tsx|jsx)$/;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
/** Past either bound the identity is the package version and the entry file only (a plugin that big is unusual). */
const MAX_FILES = 2_000;
const MAX_BYTES = 32 * 1024 * 1024;

async function nearestManifest(from: string): Promise<{ name?: string; version?: string } | undefined> {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        return JSON.parse(text) as { name?: string; version?: string };
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The code files under `dir` (not node_modules, not dot-directories), in a stable order; undefined past MAX_FILES. */
async function codeFiles(dir: string): Promise<string[] | undefined> {
  const files: string[] = [];
  const walk = async (at: string): Promise<boolean> => {
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        if (!(await walk(path))) return false;
      } else if (entry.isFile() && CODE_FILE.test(entry.name) && !DECLARATION_FILE.test(entry.name)) {
        files.push(path);
        if (files.length > MAX_FILES) return false;
      }
    }
    return true;
  };
  return (await walk(dir)) ? files : undefined;
}

async function codeHash(entryFile: string): Promise<string> {
  const dir = dirname(entryFile);
  const files = (await codeFiles(dir)) ?? [entryFile];
  const texts = await Promise.all(files.map((file) => readFile(file)));
  const hash = createHash('sha256');
  if (texts.reduce((sum, text) => sum + text.length, 0) > MAX_BYTES) {
    hash.update(await readFile(entryFile));
  } else {
    texts.forEach((text, i) =>
      hash
        .update(`${relative(dir, files[i]!)}\0`)
        .update(text)
        .update('\0'),
    );
  }
  return hash.digest('hex').slice(0, 16);
}

/** Read once per process and entry file: a plugin's code does not change under a running engine. */
const identities = new Map<string, Promise<string>>();

/**
 * `name@version#hash` of the plugin whose entry module is `entryFile`: the hash covers the code
 * files of the entry's directory and below (a package's `dist/`, or `src/` when run from sources).
 */
export function pluginCodeIdentity(entryFile: string): Promise<string> {
  let identity = identities.get(entryFile);
  if (!identity) {
    identity = Promise.all([nearestManifest(entryFile), codeHash(entryFile)]).then(
      ([manifest, hash]) => `${manifest?.name ?? '?'}@${manifest?.version ?? '?'}#${hash}`,
    );
    identities.set(entryFile, identity);
  }
  return identity;
}
