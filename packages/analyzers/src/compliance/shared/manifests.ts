// The repository's own package.json files (the root and its npm/yarn/pnpm workspaces), read through
// the snapshot, with the line numbers findings anchor on.
import { createWorkspaceMatcher, type RepoSnapshot } from '@codehealth/engine/kit';

export interface Manifest {
  /** Repository-relative path of the package.json. */
  path: string;
  /** Its directory, `''` for the root. */
  dir: string;
  text: string;
  json: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export async function readManifest(snapshot: RepoSnapshot, path: string): Promise<Manifest | undefined> {
  try {
    const text = await snapshot.readFile(path);
    const json: unknown = JSON.parse(text);
    if (!isObject(json)) return undefined;
    const slash = path.lastIndexOf('/');
    return { path, dir: slash === -1 ? '' : path.slice(0, slash), text, json };
  } catch {
    // Missing, unreadable or not JSON: nothing to check.
    return undefined;
  }
}

/** `packages:` entries of a pnpm-workspace.yaml (a flat list of quoted or bare globs). */
function pnpmWorkspaceGlobs(text: string): string[] {
  const globs: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s*-\s*['"]?([^'"#]+?)['"]?\s*(?:#.*)?$/.exec(line);
      if (item) globs.push(item[1]);
    }
  }
  return globs;
}

/** The root package.json and those of the workspace packages it (or pnpm-workspace.yaml) declares. */
export async function repositoryManifests(snapshot: RepoSnapshot): Promise<Manifest[]> {
  const root = await readManifest(snapshot, 'package.json');
  const manifests: Manifest[] = root ? [root] : [];
  const field = root?.json.workspaces;
  let globs: string[] = Array.isArray(field) ? field : isObject(field) && Array.isArray(field.packages) ? field.packages : [];
  if (snapshot.files.some((f) => f.path === 'pnpm-workspace.yaml')) {
    globs = [...globs, ...pnpmWorkspaceGlobs(await snapshot.readFile('pnpm-workspace.yaml').catch(() => ''))];
  }
  const inWorkspace = createWorkspaceMatcher(globs);
  if (!inWorkspace) return manifests;
  for (const file of snapshot.files) {
    if (!file.path.endsWith('/package.json') || file.path.includes('node_modules/')) continue;
    const dir = file.path.slice(0, -'/package.json'.length);
    if (!inWorkspace(dir)) continue;
    const manifest = await readManifest(snapshot, file.path);
    if (manifest) manifests.push(manifest);
  }
  return manifests;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 1-based line of `"key":` in the manifest text, inside the object `"block": {` when given; 1 when not found. */
export function lineOfKey(text: string, key: string, block?: string): number {
  let from = 0;
  if (block) {
    const opening = new RegExp(`"${escapeRegExp(block)}"\\s*:\\s*\\{`).exec(text);
    if (!opening) return 1;
    from = opening.index + opening[0].length;
  }
  const match = new RegExp(`"${escapeRegExp(key)}"\\s*:`).exec(text.slice(from));
  if (!match) return 1;
  return text.slice(0, from + match.index).split('\n').length;
}
