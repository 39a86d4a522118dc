// Finds and loads a repository's `codehealth.config.*`, validated against the config schema.
// JS/TS configs are code: they are loaded only when the caller allows it (the CLI on a directory the
// user chose); hosts that analyse untrusted repositories read JSON only. The file is read like any
// other of the repository (a link is followed only to a file inside it), and errors name positions
// and keys, never the file's text: they reach users (an onboarding's `failed` event).
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeText, repositoryFiles } from '../snapshot/repository-files.js';
import { configSchema, type CodeHealthConfig } from './schema.js';
import { ConfigError, formatSchemaIssues } from './errors.js';
import { parseJson } from './json-syntax.js';

export const CONFIG_FILE_NAMES = [
  'codehealth.config.json',
  'codehealth.config.js',
  'codehealth.config.mjs',
  'codehealth.config.cjs',
  'codehealth.config.ts',
  'codehealth.config.mts',
] as const;

export interface LoadedConfig {
  config: CodeHealthConfig;
  /** Absolute path of the file it came from; undefined when the repository has none. */
  path?: string;
}

/** A config is larger than this only by mistake (or to make the host read a huge file). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Anything but a directory by that name: where a link leads, and whether it is a regular file, is for the read to check. */
async function present(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  return stats !== undefined && !stats.isDirectory();
}

/** Validates a config object; the error names every offending key. */
export function validateConfig(value: unknown, origin: string): CodeHealthConfig {
  const parsed = configSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ConfigError(`invalid config ${origin}: ${formatSchemaIssues(parsed.error.issues)}`);
}

export async function loadConfig(root: string, options: { allowCode: boolean }): Promise<LoadedConfig> {
  const found: string[] = [];
  for (const name of CONFIG_FILE_NAMES) if (await present(join(root, name))) found.push(name);
  if (found.length === 0) return { config: {} };
  if (found.length > 1) throw new ConfigError(`more than one config file in ${root}: ${found.join(', ')}; keep one`);
  const name = found[0];
  const path = join(root, name);
  if (!name.endsWith('.json') && !options.allowCode) {
    throw new ConfigError(`${name} is code and this host only reads codehealth.config.json; convert it to JSON`);
  }
  const read = await repositoryFiles(root).read(name, { maxBytes: MAX_CONFIG_BYTES });
  if (!read.ok) throw new ConfigError(`config ${read.message}`);
  if (name.endsWith('.json')) {
    const parsed = parseJson(decodeText(read.bytes));
    if (!parsed.ok) throw new ConfigError(`invalid config ${name}: ${parsed.message}`);
    return { config: validateConfig(parsed.value, name), path };
  }
  let value: unknown;
  try {
    // Loaded here, not with the module: jiti is 190 KB of CommonJS that every process and worker
    // thread importing the engine would otherwise lex and compile, for the few repositories with a code config.
    const { createJiti } = await import('jiti');
    const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
    value = await jiti.import(read.realPath, { default: true });
  } catch (error) {
    throw new ConfigError(`cannot load ${name}: ${(error as Error).message.split('\n')[0]}`);
  }
  return { config: validateConfig(value, name), path };
}
