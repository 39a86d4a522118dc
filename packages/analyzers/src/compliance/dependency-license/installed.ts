// Reads the licence of an installed dependency from node_modules (never from the network), the way
// Node resolves it: the package directory's node_modules first, then each parent up to the root.
import { access, readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
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

export const exists = (path: string): Promise<boolean> => access(path).then(
  () => true,
  () => false,
);

async function licenseFromFiles(dir: string, only?: string): Promise<{ id: string; file: string } | undefined> {
  const names = only ? [only] : (await readdir(dir).catch(() => [] as string[])).filter((n) => LICENSE_FILE.test(n)).sort();
  for (const name of names) {
    const path = resolve(dir, name);
    if (!path.startsWith(dir + sep)) continue;
    const id = detectLicenseText(await readFile(path, 'utf8').catch(() => ''));
    if (id) return { id, file: name };
  }
  return undefined;
}

async function readInstalled(dir: string): Promise<InstalledPackage | undefined> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const version = typeof json.version === 'string' ? json.version : undefined;
  let declaration = readLicenseDeclaration(json);
  // No field, or a pointer to a file: the text may still be one of the common licences.
  if (declaration.kind === 'none' || declaration.kind === 'see-file') {
    const found = await licenseFromFiles(dir, declaration.kind === 'see-file' ? declaration.file : undefined);
    if (found) {
      declaration = { kind: 'expression', text: found.id, options: parseLicenseExpression(found.id) ?? [[found.id]] };
      return { version, declaration, fromFile: found.file };
    }
  }
  return { version, declaration };
}

export class InstalledPackages {
  private readonly cache = new Map<string, Promise<InstalledPackage | undefined>>();

  constructor(private readonly root: string) {}

  /** The package `name` as seen from the package in `fromDir` (repository-relative), or undefined. */
  async find(fromDir: string, name: string): Promise<InstalledPackage | undefined> {
    if (!PACKAGE_NAME.test(name)) return undefined;
    for (let dir = resolve(this.root, fromDir); ; dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', name);
      let found = this.cache.get(candidate);
      if (!found) {
        found = readInstalled(candidate);
        this.cache.set(candidate, found);
      }
      const installed = await found;
      if (installed) return installed;
      // Resolution stops at the repository root: what lies above is not part of what we assess.
      if (dir === this.root || !dir.startsWith(this.root)) return undefined;
    }
  }
}
