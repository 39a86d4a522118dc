// Loads a plugin package by name (from the repository's or the engine's node_modules) or by path,
// and checks that it exports a plugin. The built entry's URL is kept so worker threads can load it too.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from '../contracts/analyzer.js';
import { pluginCodeIdentity } from './plugin-identity.js';

export class PluginLoadError extends Error {
  override name = 'PluginLoadError';
  readonly expose = true;
}

export interface LoadedPlugin {
  plugin: Plugin;
  /**
   * File URL of the module a worker thread can import (workers run the built engine, plain
   * JavaScript); undefined for plugins handed over as objects and for a plugin loaded from its
   * TypeScript sources that has no built entry (its per-file pass then stays in process).
   */
  url?: string;
  /** `name@version#hash` of the code loaded (plugin-identity.ts): part of the summary cache key. */
  identity: string;
}

type Exports = string | { [condition: string]: Exports } | null | undefined;
const CONDITIONS = ['import', 'node', 'default'];
/**
 * The engine running from its own TypeScript sources (a test runner such as vitest, which imports
 * them) loads plugins from theirs too, through the `source` export condition that our packages
 * declare: a test then runs the rules under test, never a stale build.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const SOURCE_CONDITIONS = ['source', ...CONDITIONS];

function pickExport(entry: Exports, conditions: readonly string[]): string | undefined {
  if (typeof entry === 'string') return entry;
  if (!entry || typeof entry !== 'object') return undefined;
  if ('.' in entry) return pickExport(entry['.'], conditions);
  for (const c of conditions)
    if (c in entry) {
      const picked = pickExport(entry[c], conditions);
      if (picked) return picked;
    }
  return undefined;
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function entryOfPackage(dir: string, conditions: readonly string[] = CONDITIONS): Promise<string> {
  let manifest: { exports?: Exports; main?: string; module?: string };
  try {
    manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  } catch (error) {
    throw new PluginLoadError(`cannot read the package.json of plugin ${dir}: ${(error as Error).message}`);
  }
  const rel = pickExport(manifest.exports, conditions) ?? manifest.module ?? manifest.main ?? 'index.js';
  return join(dir, rel);
}

async function findPackageDir(name: string, fromDirs: string[]): Promise<string | undefined> {
  for (const start of fromDirs) {
    for (let dir = start; ; dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', name);
      if (await isDir(candidate)) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/**
 * Resolves a specifier to a module file: paths relative to `fromDir`, packages from its
 * node_modules, then the engine's (the engine's first with `engineFirst`: its default plugins are
 * its companions, and another copy in the current directory's node_modules may be of another version).
 */
export async function resolvePlugin(
  specifier: string,
  fromDir: string,
  { engineFirst = false, conditions = CONDITIONS }: { engineFirst?: boolean; conditions?: readonly string[] } = {},
): Promise<string> {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const path = resolve(fromDir, specifier);
    if (await isDir(path)) return entryOfPackage(path, conditions);
    if (
      await stat(path).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return path;
    throw new PluginLoadError(`plugin "${specifier}" not found at ${path}`);
  }
  const engineDir = dirname(fileURLToPath(import.meta.url));
  const packageDir = await findPackageDir(specifier, engineFirst ? [engineDir, fromDir] : [fromDir, engineDir]);
  if (!packageDir) throw new PluginLoadError(`plugin "${specifier}" is not installed (looked in ${fromDir} and the engine's node_modules)`);
  return entryOfPackage(packageDir, conditions);
}

export function assertPlugin(value: unknown, origin: string): Plugin {
  const mod = value as { default?: unknown; plugin?: unknown };
  const candidate = (mod?.plugin ?? mod?.default ?? value) as Partial<Plugin>;
  if (!candidate || typeof candidate.name !== 'string' || !Array.isArray(candidate.analyzers)) {
    throw new PluginLoadError(`${origin} does not export a plugin ({ name, analyzers }) as default or "plugin"`);
  }
  for (const a of candidate.analyzers) {
    if (!a || typeof a.id !== 'string' || !Array.isArray(a.rules)) {
      throw new PluginLoadError(`${origin}: analyzer entries need an id and a rules array`);
    }
  }
  return candidate as Plugin;
}

export async function loadPlugin(specifier: string, fromDir: string, options: { engineFirst?: boolean } = {}): Promise<LoadedPlugin> {
  const built = await resolvePlugin(specifier, fromDir, options);
  const file = FROM_SOURCE ? await resolvePlugin(specifier, fromDir, { ...options, conditions: SOURCE_CONDITIONS }) : built;
  const identity = pluginCodeIdentity(file);
  let mod: unknown;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (error) {
    throw new PluginLoadError(`cannot load plugin "${specifier}": ${(error as Error).message.split('\n')[0]}`);
  }
  const workerLoadable =
    file === built ||
    (await stat(built).then(
      (s) => s.isFile(),
      () => false,
    ));
  return {
    plugin: assertPlugin(mod, `plugin "${specifier}"`),
    url: workerLoadable ? pathToFileURL(built).href : undefined,
    identity: await identity,
  };
}
