// The part of a tsconfig the resolver needs (`baseUrl`, `paths`, `rootDir`, `outDir`), merged
// along its `extends` chain with each relative option resolved against the file that set it.
import { dirOf, isObject, joinPath, type ReadJson } from './file-probe.js';

export interface TsconfigPaths {
  /** Repository-relative directory of `baseUrl`, if set. */
  baseUrl?: string;
  /** `paths` patterns and the directory their targets are relative to (baseUrl, else the config that set them). */
  paths?: { patterns: Record<string, string[]>; base: string };
  rootDir?: string;
  outDir?: string;
}

const MAX_EXTENDS_DEPTH = 16;

/** Loads the tsconfig at `configPath` (repository-relative); undefined when it does not exist. */
export function loadTsconfig(configPath: string, readJson: ReadJson, depth = 0): TsconfigPaths | undefined {
  const json = readJson(configPath);
  if (!isObject(json) || depth > MAX_EXTENDS_DEPTH) return undefined;
  const dir = dirOf(configPath);
  let merged: TsconfigPaths = {};
  const parents = typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : [];
  for (const parent of parents) {
    if (typeof parent !== 'string') continue;
    const base = loadExtended(dir, parent, readJson, depth);
    if (base) merged = { ...merged, ...base };
  }
  const options = isObject(json.compilerOptions) ? json.compilerOptions : {};
  const own: TsconfigPaths = {};
  if (typeof options.baseUrl === 'string') own.baseUrl = joinPath(dir, options.baseUrl);
  if (isObject(options.paths)) own.paths = { patterns: stringArrays(options.paths), base: dir };
  if (typeof options.rootDir === 'string') own.rootDir = joinPath(dir, options.rootDir);
  if (typeof options.outDir === 'string') own.outDir = joinPath(dir, options.outDir);
  const result = { ...merged, ...own };
  // Once a baseUrl is known, `paths` from anywhere in the chain resolve against it.
  if (result.paths && result.baseUrl !== undefined) result.paths = { ...result.paths, base: result.baseUrl };
  return result;
}

function loadExtended(dir: string, parent: string, readJson: ReadJson, depth: number): TsconfigPaths | undefined {
  for (const candidate of extendsCandidates(dir, parent)) {
    const loaded = loadTsconfig(candidate, readJson, depth + 1);
    if (loaded) return loaded;
  }
  return undefined;
}

/** Files an `extends` value may name: a path relative to the config, or a package under node_modules. */
export function extendsCandidates(configDir: string, parent: string): string[] {
  const isPath = parent.startsWith('.') || parent.startsWith('/');
  const target = isPath ? joinPath(configDir, parent) : joinPath('node_modules', parent);
  return target.endsWith('.json') ? [target] : [`${target}.json`, `${target}/tsconfig.json`];
}

function stringArrays(value: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, targets] of Object.entries(value)) {
    if (Array.isArray(targets)) out[key] = targets.filter((t): t is string => typeof t === 'string');
  }
  return out;
}

/**
 * Candidate repository paths for a specifier under `paths`: the exact key, else the pattern with
 * the longest prefix before `*` (TypeScript's rule); undefined when no key matches.
 */
export function pathsCandidates(config: TsconfigPaths, specifier: string): string[] | undefined {
  const { paths } = config;
  if (!paths) return undefined;
  const exact = paths.patterns[specifier];
  if (exact && !specifier.includes('*')) return exact.map((t) => joinPath(paths.base, t));
  let best: { prefix: string; suffix: string; targets: string[] } | undefined;
  for (const [key, targets] of Object.entries(paths.patterns)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (specifier.length < prefix.length + suffix.length) continue;
    if (!specifier.startsWith(prefix) || !specifier.endsWith(suffix)) continue;
    if (!best || prefix.length > best.prefix.length) best = { prefix, suffix, targets };
  }
  if (!best) return undefined;
  const matched = specifier.slice(best.prefix.length, specifier.length - best.suffix.length);
  return best.targets.map((t) => joinPath(paths.base, t.replace('*', matched)));
}
