// Assessment metrics derived from summaries, findings, the graph and git history.
import type { FileRole, Finding, HealthCategoryKey, Severity } from '../domain/types.js';
import { FILE_ROLES, HEALTH_CATEGORY_KEYS, SEVERITIES } from '../domain/types.js';
import { roleOfFile } from '../snapshot/file-roles.js';
import { healthKeyOf } from '../domain/categories.js';
import type { CodeGraph } from '../graph/types.js';
import type { GitFacts, RepoFile } from '../snapshot/types.js';
import type { FileSummary } from './file-summary.js';
import type { AssessmentMetrics, RoleSize, SkippedFile } from './types.js';

/** Hot files: source files with at least 3 commits in 90 days, the 10 most changed. */
const HOT_FILE_LIMIT = 10;
/** Files with parse errors listed by name in the metrics (their count is always complete). */
export const PARSE_ERROR_FILE_LIMIT = 100;

/** Files and code lines per role: every inventoried file counts once, code lines from the analysed summaries. */
export function roleSizes(files: readonly RepoFile[], summaries: readonly FileSummary[]): Record<FileRole, RoleSize> {
  const sizes = Object.fromEntries(FILE_ROLES.map((role) => [role, { files: 0, linesOfCode: 0 }])) as Record<FileRole, RoleSize>;
  const roleByPath = new Map<string, FileRole>();
  for (const file of files) {
    const role = roleOfFile(file);
    roleByPath.set(file.path, role);
    sizes[role].files++;
  }
  for (const s of summaries) if (!s.skipped) sizes[roleByPath.get(s.path) ?? roleOfFile(s)].linesOfCode += s.lines.code;
  return sizes;
}

export function computeMetrics(input: {
  files: readonly RepoFile[];
  summaries: readonly FileSummary[];
  findings: readonly Finding[];
  skipped: readonly SkippedFile[];
  graph: CodeGraph;
  git: GitFacts;
  analyzerMetrics: Record<string, number>;
  durationMs: number;
}): AssessmentMetrics {
  const { files, summaries, findings, graph, git } = input;
  const kindCount = (kind: RepoFile['kind']) => files.filter((f) => f.kind === kind).length;
  const sizeOf = new Map(files.map((f) => [f.path, f.sizeBytes]));
  const sourcePaths = new Set(summaries.filter((s) => s.kind === 'source').map((s) => s.path));
  let totalLinesOfCode = 0;
  let testLinesOfCode = 0;
  let parsedBytes = 0;
  let cleanBytes = 0;
  let parsedFiles = 0;
  let filesWithErrors = 0;
  let repairedFiles = 0;
  const errorFiles: Array<{ path: string; line: number }> = [];
  let cachedFiles = 0;
  for (const s of summaries) {
    if (s.skipped) continue;
    if (s.kind === 'source') totalLinesOfCode += s.lines.code;
    if (s.kind === 'test') testLinesOfCode += s.lines.code;
    if (s.cached) cachedFiles++;
    if (s.contentHash && s.language !== 'other') {
      parsedFiles++;
      if (s.parse.errorNodes > 0) {
        filesWithErrors++;
        errorFiles.push({ path: s.path, line: s.parse.firstErrorLine ?? 1 });
      }
      if (s.parse.repairs) repairedFiles++;
      const size = sizeOf.get(s.path) ?? 0;
      parsedBytes += size;
      cleanBytes += size * s.parse.cleanRatio;
    }
  }
  const severityCounts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  const categoryCounts = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((k) => [k, 0])) as Record<HealthCategoryKey, number>;
  for (const f of findings) {
    severityCounts[f.severity]++;
    categoryCounts[healthKeyOf(f.category)]++;
  }
  const { linesAdded30d, linesDeleted30d } = git.totals;
  const hotFiles = [...git.files.entries()]
    .filter(([path]) => sourcePaths.has(path))
    .sort((a, b) => b[1].commits90d - a[1].commits90d || a[0].localeCompare(b[0]))
    .filter(([, churn]) => churn.commits90d >= 3)
    .slice(0, HOT_FILE_LIMIT)
    .map(([path]) => path);
  let internalEdges = 0;
  let externalEdges = 0;
  let unresolvedEdges = 0;
  for (const e of graph.edges) {
    if (e.resolution === 'internal') internalEdges++;
    else if (e.resolution === 'external') externalEdges++;
    else unresolvedEdges++;
  }
  return {
    files: {
      total: files.length,
      analysed: summaries.filter((s) => !s.skipped && (s.kind === 'source' || s.kind === 'test')).length,
      source: kindCount('source'),
      test: kindCount('test'),
      generated: kindCount('generated'),
      vendored: kindCount('vendored'),
      config: kindCount('config'),
      other: kindCount('documentation') + kindCount('asset'),
      skipped: input.skipped.length,
    },
    totalLinesOfCode,
    testLinesOfCode,
    roles: roleSizes(files, summaries),
    parse: {
      files: parsedFiles,
      filesWithErrors,
      filesWithErrorsPercent: parsedFiles === 0 ? 0 : Math.round((filesWithErrors / parsedFiles) * 1000) / 10,
      cleanPercent: parsedBytes === 0 ? 100 : Math.round((cleanBytes / parsedBytes) * 1000) / 10,
      repairedFiles,
      errorFiles: errorFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, PARSE_ERROR_FILE_LIMIT),
      cachedFiles,
    },
    severityCounts,
    categoryCounts,
    actualCoveragePercent: null,
    churn: {
      linesAdded30d,
      linesDeleted30d,
      churnRate: totalLinesOfCode === 0 ? 0 : Math.round(((linesAdded30d + linesDeleted30d) / totalLinesOfCode) * 1000 * 10) / 10,
      hotFiles,
    },
    graph: { modules: graph.modules.size, internalEdges, externalEdges, unresolvedEdges, cycles: graph.cycles.length },
    analyzerMetrics: input.analyzerMetrics,
    durationMs: input.durationMs,
  };
}
