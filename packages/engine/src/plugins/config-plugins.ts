// The plugins a repository's config names, decided by trust. A host analysing a repository it does
// not trust never imports code the repository names: a named plugin is accepted only when it is one
// the host installed itself (matched by package specifier or plugin name), and anything else is
// refused with a notice that becomes a finding. Only a trusted run (the CLI on a directory the user
// chose) resolves and imports what the config names, relative to the repository.
import type { Analyzer } from '../contracts/analyzer.js';
import type { Finding } from '../domain/types.js';
import type { CodeHealthConfig } from '../config/schema.js';
import { fileGroupOf } from '../pipeline/findings.js';
import { loadPlugin, type LoadedPlugin } from './load-plugin.js';

/** A plugin the engine was composed with: its specifier when it was loaded by name, and its name. */
export interface InstalledPlugin {
  name: string;
  specifier?: string;
}

export interface RefusedPlugin {
  specifier: string;
  reason: string;
}

export interface ConfigPlugins {
  /** Plugins imported for this run (trusted runs only). */
  loaded: LoadedPlugin[];
  /** Named plugins not loaded, and why. */
  refused: RefusedPlugin[];
}

export const PLUGIN_NOT_INSTALLED_RULE = 'config/plugin-not-installed';

/** Whether `specifier` names one of the host's plugins. */
export function isInstalled(specifier: string, installed: readonly InstalledPlugin[]): boolean {
  return installed.some((p) => p.specifier === specifier || p.name === specifier);
}

/**
 * Resolves the config's `plugins` for one run. `trusted` is the caller's statement that the
 * repository's code may run in this process; without it nothing is imported.
 */
export async function configPlugins(
  specifiers: readonly string[],
  options: { installed: readonly InstalledPlugin[]; root: string; trusted: boolean },
): Promise<ConfigPlugins> {
  const loaded: LoadedPlugin[] = [];
  const refused: RefusedPlugin[] = [];
  for (const specifier of new Set(specifiers)) {
    // Already part of the engine: its analyzers run (the config enables and configures them).
    if (isInstalled(specifier, options.installed)) continue;
    if (!options.trusted) {
      refused.push({ specifier, reason: 'not installed on this host; a repository cannot add plugins' });
      continue;
    }
    loaded.push(await loadPlugin(specifier, options.root));
  }
  return { loaded, refused };
}

/**
 * The configuration without the settings of analyzers nobody provides, when the config named a
 * plugin that was refused: those settings are most likely the refused plugin's, and a run of the
 * host's analyzers should not fail on them (a typo of a known analyzer's rule still does). The
 * keys left out are returned, for the notice.
 */
export function withoutRefusedSettings(
  config: CodeHealthConfig,
  analyzers: readonly Analyzer[],
  refused: readonly RefusedPlugin[],
): { config: CodeHealthConfig; ignored: string[] } {
  if (refused.length === 0) return { config, ignored: [] };
  const provided = new Set(analyzers.map((a) => a.id));
  const ignored: string[] = [];
  const keep = <T>(entries: Record<string, T> | undefined, prefix: string, analyzerOf: (key: string) => string) => {
    if (!entries) return undefined;
    const kept = Object.entries(entries).filter(([key]) => provided.has(analyzerOf(key)) || (ignored.push(`${prefix}.${key}`), false));
    return Object.fromEntries(kept);
  };
  const effective: CodeHealthConfig = { ...config };
  if (config.analyzers) effective.analyzers = keep(config.analyzers, 'analyzers', (key) => key);
  if (config.rules) effective.rules = keep(config.rules, 'rules', (key) => key.slice(0, key.indexOf('/')));
  return ignored.length === 0 ? { config, ignored } : { config: effective, ignored };
}

/** Analyzers of plugins loaded for a run. */
export const analyzersOf = (plugins: readonly LoadedPlugin[]): Analyzer[] => plugins.flatMap((p) => p.plugin.analyzers);

/**
 * One `info` finding per refused plugin, anchored on the line of the config file that names it
 * (the first line when the name is not found, e.g. a config handed over by the caller).
 */
export function refusedPluginFindings(
  refused: readonly RefusedPlugin[],
  configPath: string,
  configText: string | undefined,
  ignored: readonly string[] = [],
): Finding[] {
  const unused = ignored.length > 0 ? ` Settings of analyzers no installed plugin provides were ignored: ${ignored.join(', ')}.` : '';
  const lines = configText?.split('\n') ?? [];
  return refused.map(({ specifier, reason }) => {
    const quoted = JSON.stringify(specifier);
    const index = lines.findIndex((line) => line.includes(quoted));
    const line = index >= 0 ? index + 1 : 1;
    const snippet = (lines[line - 1] ?? '').slice(0, 200);
    return {
      source: 'static_analyzer',
      severity: 'info',
      category: 'compliance',
      filePath: configPath,
      fileGroup: fileGroupOf(configPath),
      anchor: { lineStart: line, lineEnd: line, codeSnippet: snippet, validated: index >= 0 },
      title: `Plugin ${quoted} named in ${configPath} was not loaded`,
      description: `The configuration names the plugin ${quoted}, which is ${reason}. Its analyzers did not run.${unused}`,
      whyItMatters:
        'A server that analyses repositories never runs code a repository names. Plugins come from the host: a repository config can only enable, disable and configure the plugins the host installed.',
      suggestedAction: `Ask the host's administrator to install ${quoted} (CODEHEALTH_PLUGINS), or remove it from "plugins".`,
      ruleId: PLUGIN_NOT_INSTALLED_RULE,
      analyzerName: 'config',
      confidence: 100,
      autoFixable: false,
      data: { plugin: specifier },
    };
  });
}
