// Finds and loads a repository's `codehealth.config.*`, validated against the config schema.
// JS/TS configs are code: they are loaded only when the caller allows it (the CLI on a directory the
// user chose); hosts that analyse untrusted repositories read JSON only.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { configSchema, type CodeHealthConfig } from './schema.js';
import { ConfigError, formatSchemaIssues } from './errors.js';

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

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Validates a config object; the error names every offending key. */
export function validateConfig(value: unknown, origin: string): CodeHealthConfig {
  const parsed = configSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ConfigError(`invalid config ${origin}: ${formatSchemaIssues(parsed.error.issues)}`);
}

export async function loadConfig(root: string, options: { allowCode: boolean }): Promise<LoadedConfig> {
  const found: string[] = [];
  for (const name of CONFIG_FILE_NAMES) if (await exists(join(root, name))) found.push(name);
  if (found.length === 0) return { config: {} };
  if (found.length > 1) throw new ConfigError(`more than one config file in ${root}: ${found.join(', ')}; keep one`);
  const name = found[0];
  const path = join(root, name);
  if (name.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new ConfigError(`invalid config ${name}: ${(error as Error).message}`);
    }
    return { config: validateConfig(value, name), path };
  }
  if (!options.allowCode) {
    throw new ConfigError(`${name} is code and this host only reads codehealth.config.json; convert it to JSON`);
  }
  let value: unknown;
  try {
    // Loaded here, not with the module: jiti is 190 KB of CommonJS that every process and worker
    // thread importing the engine would otherwise lex and compile, for the few repositories with a code config.
    const { createJiti } = await import('jiti');
    const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
    value = await jiti.import(path, { default: true });
  } catch (error) {
    throw new ConfigError(`cannot load ${name}: ${(error as Error).message.split('\n')[0]}`);
  }
  return { config: validateConfig(value, name), path };
}
