// Resolves the enabled analyzers and rules, with validated options, from the plugins and a config.
// The same function runs in the main thread and in each worker, so both see one rule set.
import { createHash } from 'node:crypto';
import type { Analyzer, Collector, FileRule, RepositoryRule, Rule } from '../contracts/analyzer.js';
import type { RepoFile } from '../snapshot/types.js';
import { roleOfFile } from '../snapshot/file-roles.js';
import type { Severity } from '../domain/types.js';
import type { CodeHealthConfig, RuleSetting } from '../config/schema.js';
import { ConfigError, formatSchemaIssues } from '../config/errors.js';

interface ActiveRuleBase {
  analyzerId: string;
  qualifiedId: string;
  options: unknown;
  severityOverride?: Severity;
}
export interface ActiveFileRule extends ActiveRuleBase {
  rule: FileRule<unknown>;
}
export interface ActiveRepositoryRule extends ActiveRuleBase {
  rule: RepositoryRule<unknown>;
  /** Its analyzer's `readsGraph` (undefined: it may read the graph). */
  readsGraph?: boolean;
}
export interface ActiveCollector {
  analyzerId: string;
  collector: Collector;
}

export interface RuleSet {
  analyzers: Analyzer[];
  fileRules: ActiveFileRule[];
  repositoryRules: ActiveRepositoryRule[];
  collectors: ActiveCollector[];
  /** Changes whenever the rules or their options change; part of the file cache key. */
  fingerprint: string;
}

function settingOf(setting: RuleSetting | undefined): { enabled: boolean; severity?: Severity; options?: unknown } {
  if (setting === undefined || setting === true) return { enabled: true };
  if (setting === false || setting === 'off') return { enabled: false };
  return { enabled: setting.enabled ?? true, severity: setting.severity, options: setting.options };
}

function analyzerEnabled(config: CodeHealthConfig, id: string): boolean {
  const s = config.analyzers?.[id];
  if (s === undefined) return true;
  return typeof s === 'boolean' ? s : (s.enabled ?? true);
}

export function parseRuleOptions(rule: Rule, qualifiedId: string, raw: unknown): unknown {
  if (!rule.meta.options) {
    if (raw !== undefined && Object.keys(raw as object).length > 0) {
      throw new ConfigError(`rules.${qualifiedId}.options: this rule takes no options`);
    }
    return undefined;
  }
  const parsed = rule.meta.options.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`rules.${qualifiedId}.options: ${formatSchemaIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

/**
 * `codeIdentities` name the code of the plugins the analyzers come from (plugin-identity.ts): the
 * fingerprint keys the summary cache and the kept run states, so other code gets another one.
 */
export function buildRuleSet(allAnalyzers: readonly Analyzer[], config: CodeHealthConfig, codeIdentities: readonly string[] = []): RuleSet {
  const ids = new Set<string>();
  for (const a of allAnalyzers) {
    if (ids.has(a.id)) throw new ConfigError(`two plugins provide an analyzer with id "${a.id}"`);
    ids.add(a.id);
  }
  for (const id of Object.keys(config.analyzers ?? {})) {
    if (!ids.has(id)) throw new ConfigError(`analyzers.${id}: no such analyzer (known: ${[...ids].sort().join(', ')})`);
  }
  const known = new Map<string, Rule>();
  for (const a of allAnalyzers) for (const r of a.rules) known.set(`${a.id}/${r.meta.id}`, r);
  for (const id of Object.keys(config.rules ?? {})) {
    if (!known.has(id)) throw new ConfigError(`rules.${id}: no such rule`);
  }

  const analyzers = allAnalyzers.filter((a) => analyzerEnabled(config, a.id));
  const set: RuleSet = { analyzers, fileRules: [], repositoryRules: [], collectors: [], fingerprint: '' };
  const hash = createHash('sha256');
  for (const analyzer of analyzers) {
    for (const rule of analyzer.rules) {
      const qualifiedId = `${analyzer.id}/${rule.meta.id}`;
      const setting = settingOf(config.rules?.[qualifiedId]);
      if (!setting.enabled) continue;
      const options = parseRuleOptions(rule, qualifiedId, setting.options);
      const active = { analyzerId: analyzer.id, qualifiedId, options, severityOverride: setting.severity };
      if (rule.kind === 'file') set.fileRules.push({ ...active, rule });
      else set.repositoryRules.push({ ...active, rule, ...(analyzer.readsGraph === false ? { readsGraph: false } : {}) });
      hash.update(`${qualifiedId}\0${JSON.stringify(options) ?? ''}\0${setting.severity ?? ''}\n`);
    }
    for (const collector of analyzer.collectors ?? []) {
      set.collectors.push({ analyzerId: analyzer.id, collector });
      hash.update(`collector:${analyzer.id}/${collector.id}\n`);
    }
  }
  for (const identity of codeIdentities) hash.update(`code:${identity}\n`);
  set.fingerprint = hash.digest('hex').slice(0, 16);
  return set;
}

/** Whether a file rule looks at a file: by language, by kind (source by default) and by role (any by default). */
export function ruleAppliesTo(active: ActiveFileRule, analyzer: Analyzer | undefined, file: RepoFile): boolean {
  const kinds = active.rule.meta.fileKinds ?? ['source'];
  if (!kinds.includes(file.kind as 'source' | 'test')) return false;
  const roles = active.rule.meta.roles;
  if (roles && !roles.includes(roleOfFile(file))) return false;
  const languages = active.rule.meta.languages ?? analyzer?.languages;
  return !languages || languages.includes(file.language);
}
