// What a run hands the scoring model besides findings: production lines of code, and the evidence
// that tells "nothing wrong" from "nothing seen" — production files analysed, files of other roles,
// code in languages no analyzer reads, and the analyzers whose enabled rules cover each category.
import type { ScoringEvidence, ScoringMetrics } from '../contracts/scoring.js';
import type { HealthCategoryKey } from '../domain/types.js';
import { healthKeyOf } from '../domain/categories.js';
import { isParsedLanguage } from '../parsing/parser.js';
import type { RuleSet } from '../plugins/rule-set.js';
import type { RepoFile } from '../snapshot/types.js';
import { roleOfFile } from '../snapshot/file-roles.js';
import { extensionOf } from '../snapshot/languages.js';
import type { FileSummary } from '../pipeline/file-summary.js';
import type { AssessmentMetrics } from '../pipeline/types.js';
import { PRODUCTION_ROLE } from './production-findings.js';

/** Names for the reason of "not analysed"; other extensions are named by themselves (`.foo`). */
const LANGUAGE_NAMES: Record<string, string> = {
  py: 'Python',
  rb: 'Ruby',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  kts: 'Kotlin',
  scala: 'Scala',
  swift: 'Swift',
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  hpp: 'C++',
  cs: 'C#',
  fs: 'F#',
  php: 'PHP',
  pl: 'Perl',
  lua: 'Lua',
  r: 'R',
  dart: 'Dart',
  ex: 'Elixir',
  exs: 'Elixir',
  erl: 'Erlang',
  clj: 'Clojure',
  hs: 'Haskell',
  ml: 'OCaml',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  fish: 'shell',
  ps1: 'PowerShell',
  sql: 'SQL',
  vue: 'Vue',
  svelte: 'Svelte',
  astro: 'Astro',
  graphql: 'GraphQL',
  gql: 'GraphQL',
  proto: 'Protocol Buffers',
  sol: 'Solidity',
  zig: 'Zig',
  elm: 'Elm',
  css: 'CSS',
  scss: 'CSS',
  sass: 'CSS',
  less: 'CSS',
  html: 'HTML',
  htm: 'HTML',
};

/** TypeScript declarations (`index.d.ts`, `.d.mts`, `.d.cts`): classified generated, never analysed. */
const DECLARATION_FILE = /\.d\.[mc]?ts$/i;

export interface ScoringInputs {
  productionLoc: number;
  evidence: ScoringEvidence;
  /** Categories some enabled rule covers. */
  assessed: Set<HealthCategoryKey>;
}

export function scoringInputsOf(
  files: readonly RepoFile[],
  summaries: readonly FileSummary[],
  ruleSet: Pick<RuleSet, 'fileRules' | 'repositoryRules'>,
): ScoringInputs {
  const roleByPath = new Map(files.map((f) => [f.path, roleOfFile(f)]));
  let productionLoc = 0;
  let productionFiles = 0;
  let skippedFiles = 0;
  const otherRoleFiles: Record<string, number> = {};
  const otherRoleLoc: Record<string, number> = {};
  for (const s of summaries) {
    const role = roleByPath.get(s.path) ?? roleOfFile(s);
    if (s.skipped) {
      if (role === PRODUCTION_ROLE) skippedFiles++;
      continue;
    }
    if (role === PRODUCTION_ROLE) {
      productionFiles++;
      productionLoc += s.lines.code;
    } else {
      otherRoleFiles[role] = (otherRoleFiles[role] ?? 0) + 1;
      otherRoleLoc[role] = (otherRoleLoc[role] ?? 0) + s.lines.code;
    }
  }
  const unsupportedFiles: Record<string, number> = {};
  let declarationFiles = 0;
  for (const f of files) {
    if (f.kind === 'generated' && DECLARATION_FILE.test(f.path)) declarationFiles++;
    if ((f.kind !== 'source' && f.kind !== 'test') || isParsedLanguage(f.language)) continue;
    const ext = extensionOf(f.path);
    const name = LANGUAGE_NAMES[ext] ?? (ext ? `.${ext}` : 'extension-less');
    unsupportedFiles[name] = (unsupportedFiles[name] ?? 0) + 1;
  }
  const analyzers: Partial<Record<HealthCategoryKey, string[]>> = {};
  for (const active of [...ruleSet.fileRules, ...ruleSet.repositoryRules]) {
    const list = (analyzers[healthKeyOf(active.rule.meta.category)] ??= []);
    if (!list.includes(active.analyzerId)) list.push(active.analyzerId);
  }
  for (const list of Object.values(analyzers)) list.sort();
  return {
    productionLoc,
    evidence: { analyzers, productionFiles, otherRoleFiles, otherRoleLoc, unsupportedFiles, skippedFiles, declarationFiles },
    assessed: new Set(Object.keys(analyzers) as HealthCategoryKey[]),
  };
}

/** The scoring model's metrics of a run: production lines (all source lines for a result made before roles were scored). */
export function scoringMetricsOf(metrics: AssessmentMetrics): ScoringMetrics {
  return {
    sourceLoc: metrics.productionLinesOfCode ?? metrics.totalLinesOfCode,
    testLoc: metrics.testLinesOfCode,
    structuralCoveragePct: metrics.structuralCoveragePct,
    actualCoveragePercent: metrics.actualCoveragePercent ?? undefined,
    duplicationIndex: metrics.duplicationIndex,
    conventionConsistency: metrics.conventionConsistency,
  };
}
