// Reading SARIF logs, ours or another tool's, into findings (`source` 'static_analyzer' unless our
// own property bag says otherwise).
//
// What survives a round trip of our own export: everything. SARIF has native slots for the rule id,
// title (message), location, line range, snippet and symbol (logical location); the rest has no
// SARIF field — exact severity (levels merge critical/high and low/info), category, confidence,
// source, analyzer name, file group, auto-fixable, `anchor.validated`, description, per-finding
// `why_it_matters`/`suggested_action` and `data` — and travels in the result and rule property bags.
// From another tool's log those fall back to: severity by level, category from tags (else
// `code_smell`), confidence from the rule's `precision` (else 90, the engine's default), file group
// by path, validated false, description = message. Rule ids are namespaced `<tool>/<rule>`.
// Results of kind pass/notApplicable, accepted suppressions and results without a file are skipped.
import { fileURLToPath } from 'node:url';
import { ISSUE_CATEGORIES, ISSUE_SOURCES, SEVERITIES, type Finding, type IssueCategory, type Severity } from '../domain/types.js';
import { fileGroupOf } from '../pipeline/findings.js';
import type { PropertyBag, SarifArtifactLocation, SarifLevel, SarifReportingDescriptor, SarifResult, SarifRun } from './sarif-types.js';
import { TOOL_NAME } from './tool-info.js';

const SEVERITY_OF_LEVEL: Record<SarifLevel, Severity> = { error: 'high', warning: 'medium', note: 'low', none: 'info' };

/** GitHub's rule `precision` values, read as a confidence. */
const CONFIDENCE_OF_PRECISION: Record<string, number> = { 'very-high': 95, high: 85, medium: 70, low: 50 };

const TAG_CATEGORIES: ReadonlyArray<[string, IssueCategory]> = [
  ['security', 'security'],
  ['correctness', 'runtime'],
  ['reliability', 'runtime'],
  ['performance', 'runtime'],
  ['test', 'testing'],
  ['duplication', 'duplication'],
  ['dead-code', 'dead_code'],
  ['style', 'consistency'],
  ['maintainability', 'code_smell'],
];

function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'unknown'
  );
}

function categoryFrom(resultProps: PropertyBag, ruleProps: PropertyBag): IssueCategory {
  const direct = oneOf(ISSUE_CATEGORIES, resultProps.category) ?? oneOf(ISSUE_CATEGORIES, ruleProps.category);
  if (direct) return direct;
  const tags = Array.isArray(ruleProps.tags) ? ruleProps.tags.filter((t): t is string => typeof t === 'string') : [];
  const lower = tags.map((t) => t.toLowerCase());
  return TAG_CATEGORIES.find(([tag]) => lower.includes(tag))?.[1] ?? 'code_smell';
}

function dataFrom(value: unknown): Finding['data'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(([, v]) => ['number', 'string', 'boolean'].includes(typeof v));
  return entries.length > 0 ? (Object.fromEntries(entries) as Finding['data']) : undefined;
}

function decodePath(reference: string): string {
  return reference
    .split('/')
    .map(decodeURIComponent)
    .join('/')
    .replace(/^(\.\/)+/, '');
}

/** Repository-relative path of a location, or undefined when the result names no file. */
function pathOf(location: SarifArtifactLocation | undefined, run: SarifRun): string | undefined {
  const artifact = location?.uri === undefined && location?.index !== undefined ? run.artifacts?.[location.index]?.location : location;
  const uri = artifact?.uri;
  if (!uri) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(uri)) return decodePath(uri);
  const bases = Object.values(run.originalUriBaseIds ?? {})
    .map((b) => b.uri)
    .filter((b): b is string => !!b);
  const base = bases.find((b) => uri.startsWith(b.endsWith('/') ? b : `${b}/`));
  if (base) return decodePath(uri.slice(base.endsWith('/') ? base.length : base.length + 1));
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

function isSuppressed(result: SarifResult): boolean {
  return (result.suppressions ?? []).some((s) => s.status === undefined || s.status === 'accepted');
}

function ruleFor(result: SarifResult, rules: readonly SarifReportingDescriptor[]): SarifReportingDescriptor | undefined {
  const index = result.ruleIndex ?? result.rule?.index;
  if (index !== undefined && rules[index]) return rules[index];
  const id = result.ruleId ?? result.rule?.id;
  return id === undefined ? undefined : rules.find((r) => r.id === id);
}

function findingOf(result: SarifResult, run: SarifRun): Finding | undefined {
  if (result.kind === 'pass' || result.kind === 'notApplicable' || isSuppressed(result)) return undefined;
  const location = result.locations?.[0];
  const filePath = pathOf(location?.physicalLocation?.artifactLocation, run);
  if (filePath === undefined) return undefined;

  const driver = run.tool?.driver ?? { name: 'unknown' };
  const rule = ruleFor(result, driver.rules ?? []);
  const props = result.properties ?? {};
  const ruleProps = rule?.properties ?? {};
  const rawRuleId = result.ruleId ?? result.rule?.id ?? rule?.id ?? 'unknown';
  const ours = driver.name === TOOL_NAME;
  const level = result.level ?? rule?.defaultConfiguration?.level ?? 'warning';
  const region = location?.physicalLocation?.region ?? {};
  const lineStart = Math.max(1, region.startLine ?? 1);
  const title = result.message.text ?? rule?.shortDescription?.text ?? rawRuleId;
  const symbol = location?.logicalLocations?.[0]?.name ?? location?.logicalLocations?.[0]?.fullyQualifiedName;
  const precision = str(ruleProps.precision);

  const finding: Finding = {
    source: oneOf(ISSUE_SOURCES, props.source) ?? 'static_analyzer',
    severity: oneOf(SEVERITIES, props.severity) ?? SEVERITY_OF_LEVEL[level],
    category: categoryFrom(props, ruleProps),
    filePath,
    fileGroup: str(props.fileGroup) ?? fileGroupOf(filePath),
    anchor: {
      lineStart,
      lineEnd: Math.max(lineStart, region.endLine ?? lineStart),
      codeSnippet: region.snippet?.text ?? '',
      validated: bool(props.validated) ?? false,
    },
    title,
    description: str(props.description) ?? title,
    whyItMatters: str(props.whyItMatters) ?? rule?.fullDescription?.text ?? rule?.shortDescription?.text ?? '',
    suggestedAction: str(props.suggestedAction) ?? str(ruleProps.suggestedAction) ?? rule?.help?.text ?? '',
    ruleId: ours ? rawRuleId : `${slug(driver.name)}/${slug(rawRuleId)}`,
    analyzerName: str(props.analyzerName) ?? str(ruleProps.analyzerName) ?? slug(driver.name),
    confidence: Math.round(num(props.confidence) ?? (precision ? CONFIDENCE_OF_PRECISION[precision] : undefined) ?? 90),
    autoFixable: bool(props.autoFixable) ?? (result.fixes ?? []).length > 0,
  };
  if (symbol) finding.symbol = symbol;
  const data = dataFrom(props.data);
  if (data) finding.data = data;
  return finding;
}

/** Findings of every run of a SARIF 2.1.0 log, in log order. */
export function fromSarif(log: unknown): Finding[] {
  const runs = (log as { runs?: unknown } | null)?.runs;
  if (!Array.isArray(runs)) throw new TypeError('not a SARIF log: "runs" must be an array');
  return (runs as SarifRun[]).flatMap((run) => (run.results ?? []).map((result) => findingOf(result, run)).filter((f): f is Finding => f !== undefined));
}
