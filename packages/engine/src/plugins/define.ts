// Helpers that plugin authors declare analyzers and rules with (typescript-eslint's RuleCreator idea):
// they check the declaration once, at load time, and type a rule's options from its schema.
import type { Analyzer, Collector, FileRule, RepositoryRule, Rule } from '../contracts/analyzer.js';
import type { IssueCategory, Language } from '../domain/types.js';
import { ISSUE_CATEGORIES, SEVERITIES } from '../domain/types.js';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class PluginDefinitionError extends Error {
  override name = 'PluginDefinitionError';
  readonly expose = true;
}

export function defineRule<Options>(rule: FileRule<Options>): FileRule<Options>;
export function defineRule<Options>(rule: RepositoryRule<Options>): RepositoryRule<Options>;
export function defineRule<Options>(rule: Rule<Options>): Rule<Options> {
  const { meta } = rule;
  const where = `rule "${meta?.id}"`;
  if (!meta || !KEBAB.test(meta.id)) throw new PluginDefinitionError(`${where}: id must be kebab-case`);
  if (!meta.description) throw new PluginDefinitionError(`${where}: description is required`);
  if (!ISSUE_CATEGORIES.includes(meta.category)) throw new PluginDefinitionError(`${where}: unknown category "${meta.category}"`);
  if (!SEVERITIES.includes(meta.severity)) throw new PluginDefinitionError(`${where}: unknown severity "${meta.severity}"`);
  if (!meta.docs?.whyItMatters || !meta.docs?.suggestedAction) {
    throw new PluginDefinitionError(`${where}: docs.whyItMatters and docs.suggestedAction are required`);
  }
  if (meta.confidence !== undefined && (meta.confidence < 0 || meta.confidence > 100)) {
    throw new PluginDefinitionError(`${where}: confidence must be 0-100`);
  }
  if (meta.options) {
    const defaults = meta.options.safeParse(undefined);
    if (!defaults.success) throw new PluginDefinitionError(`${where}: the options schema must accept undefined (give it defaults)`);
  }
  if (rule.kind === 'file' && typeof rule.create !== 'function') throw new PluginDefinitionError(`${where}: create() is required`);
  if (rule.kind === 'repository' && typeof rule.analyze !== 'function') throw new PluginDefinitionError(`${where}: analyze() is required`);
  return rule;
}

export interface AnalyzerDefinition {
  id: string;
  description: string;
  categories: IssueCategory[];
  languages: Language[];
  rules: Rule[];
  collectors?: Collector[];
  readsGraph?: boolean;
  detect?: Analyzer['detect'];
}

export function defineAnalyzer(definition: AnalyzerDefinition): Analyzer {
  const where = `analyzer "${definition.id}"`;
  if (!KEBAB.test(definition.id)) throw new PluginDefinitionError(`${where}: id must be kebab-case`);
  if (!definition.description) throw new PluginDefinitionError(`${where}: description is required`);
  const seen = new Set<string>();
  for (const rule of definition.rules) {
    if (seen.has(rule.meta.id)) throw new PluginDefinitionError(`${where}: duplicate rule id "${rule.meta.id}"`);
    seen.add(rule.meta.id);
    if (!definition.categories.includes(rule.meta.category)) {
      throw new PluginDefinitionError(`${where}: rule "${rule.meta.id}" has category "${rule.meta.category}" not listed in the analyzer's categories`);
    }
  }
  return { ...definition };
}
