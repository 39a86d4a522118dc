// Architecture review findings: what each rule's finding says about why it matters and what to
// do, and the conversions of a finding to the wire (review records) and to an engine finding
// (issue records with source `architecture`).
import type { ArchitectureFinding } from '../api/architecture.js';
import type { Finding, Severity } from '@codehealth/engine';

export type Rule = ArchitectureFinding['rule_id'];

const GUIDANCE: Record<Rule, { why: string; action: string; confidence: number }> = {
  'architecture/import-cycle': {
    why: 'Modules in a cycle cannot be understood, tested or reused apart; at run time the import order decides which one sees the other half-initialised (undefined bindings, TDZ errors).',
    action:
      'Break the cycle: move what both sides need into a module of its own, invert one dependency behind an interface, or merge modules that are really one.',
    confidence: 95,
  },
  'architecture/layering-violation': {
    why: 'Components that depend on one another are one component in disguise: a change in either ripples into both, and neither can be built, tested or released alone.',
    action:
      'Remove this dependency, the weakest link of the cycle: move the imported code down to the component that needs it or to a shared lower component, or invert it (the lower component defines an interface, the upper implements it).',
    confidence: 70,
  },
  'architecture/unstable-dependency': {
    why: 'A component should depend on components more stable than itself (Stable Dependencies Principle): depending on a volatile one makes a stable component change whenever the volatile one does.',
    action: 'Make the dependency point at abstractions owned by the stable side, or move the used code into a more stable component.',
    confidence: 60,
  },
  'architecture/hub-module': {
    why: 'A module with many importers and many imports is a hub: changes anywhere below it reach everything above it, so it changes often and breaks much.',
    action: 'Split it by responsibility so that each importer depends only on the part it uses, and let the parts depend on fewer modules.',
    confidence: 70,
  },
};

/** A finding before it is tied to a repository. */
export interface Draft {
  rule: Rule;
  severity: Severity;
  title: string;
  description: string;
  filePath: string;
  line: number;
  snippet: string;
  components: string[];
  modules: string[];
}

export function toWireFinding(draft: Draft, repositoryId: string | null): ArchitectureFinding {
  const guidance = GUIDANCE[draft.rule];
  return {
    rule_id: draft.rule,
    severity: draft.severity,
    category: 'code_smell',
    title: draft.title,
    description: draft.description,
    why_it_matters: guidance.why,
    suggested_action: guidance.action,
    repository_id: repositoryId,
    file_path: draft.filePath,
    line_start: draft.line,
    line_end: draft.line,
    code_snippet: draft.snippet,
    components: draft.components,
    modules: draft.modules,
    confidence: guidance.confidence,
  };
}

/** A review finding as an engine finding, for the issue records (source `architecture`). */
export function architectureIssueOf(finding: ArchitectureFinding): Finding {
  return {
    source: 'architecture',
    severity: finding.severity,
    category: finding.category,
    filePath: finding.file_path,
    fileGroup: finding.components[0] ?? '.',
    anchor: { lineStart: finding.line_start, lineEnd: finding.line_end, codeSnippet: finding.code_snippet, validated: false },
    title: finding.title,
    description: finding.description,
    whyItMatters: finding.why_it_matters,
    suggestedAction: finding.suggested_action,
    ruleId: finding.rule_id,
    analyzerName: 'architecture-review',
    confidence: finding.confidence,
    autoFixable: false,
  };
}
