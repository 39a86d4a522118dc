// Reads the licence of an installed dependency from node_modules (never from the network), the way
// Node resolves it: the package directory's node_modules first, then each parent up to the root.
// node_modules is part of the checkout like any other file: read through the engine's checked read,
// a package linked out of the repository (a store elsewhere on the host, or a link committed
// towards the host's own files) reads as not installed.
import { access, readdir } from 'node:fs/promises';
import { dirname, posix } from 'node:path';
import { decodeText, parseJson, repositoryFiles, type RepositoryFiles } from '@codehealth/engine/kit';
import { detectLicenseText, parseLicenseExpression, readLicenseDeclaration, type LicenseDeclaration } from '../shared/spdx.js';

export interface InstalledPackage {
  version?: string;
  declaration: LicenseDeclaration;
  /** Set when the licence was recognised from the package's licence file, not its package.json. */
  fromFile?: string;
}

// npm's package name rules (legacy capitals allowed): no path tricks can get through.
const PACKAGE_NAME = /^(?:@[a-z0-9~][\w.~-]*\/)?[a-z0-9~][\w.~-]*$/i;
const LICENSE_FILE = /^(?:un)?licen[cs]e(?:[-_.].*)?$|^copying(?:[-_.].*)?$/i;
/** Larger manifests and licence texts are not read: none that matters comes near these. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MAX_LICENSE_BYTES = 1024 * 1024;

export const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * A licence recognised in the package's own files: `only` (a package.json's `SEE LICENSE IN`), or
 * those of its real directory `realDir` named like a licence. `dir` is its repository-relative path.
 */
async function licenseFromFiles(files: RepositoryFiles, dir: string, realDir: string, only?: string): Promise<{ id: string; file: string } | undefined> {
  const names = only ? [only] : (await readdir(realDir).catch(() => [] as string[])).filter((n) => LICENSE_FILE.test(n)).sort();
  for (const name of names) {
    // A file of the package itself: `SEE LICENSE IN ../../x` names none.
    const path = posix.join(dir, name);
    if (!path.startsWith(`${dir}/`)) continue;
    const read = await files.read(path, { maxBytes: MAX_LICENSE_BYTES });
    const id = read.ok ? detectLicenseText(decodeText(read.bytes)) : undefined;
    if (id) return { id, file: name };
  }
  return undefined;
}

async function readInstalled(files: RepositoryFiles, dir: string): Promise<InstalledPackage | undefined> {
  const read = await files.read(`${dir}/package.json`, { maxBytes: MAX_MANIFEST_BYTES });
  const parsed = read.ok ? parseJson(decodeText(read.bytes)) : undefined;
  if (!read.ok || !parsed?.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  const json = parsed.value as Record<string, unknown>;
  const version = typeof json.version === 'string' ? json.version : undefined;
  let declaration = readLicenseDeclaration(json);
  // No field, or a pointer to a file: the text may still be one of the common licences.
  if (declaration.kind === 'none' || declaration.kind === 'see-file') {
    const found = await licenseFromFiles(files, dir, dirname(read.realPath), declaration.kind === 'see-file' ? declaration.file : undefined);
    if (found) {
      declaration = { kind: 'expression', text: found.id, options: parseLicenseExpression(found.id) ?? [[found.id]] };
      return { version, declaration, fromFile: found.file };
    }
  }
  return { version, declaration };
}

export class InstalledPackages {
  private readonly cache = new Map<string, Promise<InstalledPackage | undefined>>();
  private readonly files: RepositoryFiles;

  constructor(root: string) {
    this.files = repositoryFiles(root);
  }

  /** The package `name` as seen from the package in `fromDir` (repository-relative, `''` for the root), or undefined. */
  async find(fromDir: string, name: string): Promise<InstalledPackage | undefined> {
    if (!PACKAGE_NAME.test(name)) return undefined;
    // Resolution stops at the repository root: what lies above is not part of what we assess.
    for (let dir = posix.normalize(fromDir === '' ? '.' : fromDir); ; dir = posix.dirname(dir)) {
      const candidate = dir === '.' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      let found = this.cache.get(candidate);
      if (!found) {
        found = readInstalled(this.files, candidate);
        this.cache.set(candidate, found);
      }
      const installed = await found;
      if (installed || dir === '.' || dir.startsWith('..') || dir.startsWith('/')) return installed;
    }
  }
}
