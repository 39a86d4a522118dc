// Flags source files whose line coverage in the repository's coverage report is below a threshold.
import { defineRule, roleOfFile, type RepositoryReportDescriptor } from '@codehealth/engine/kit';
import { z } from 'zod';
import { loadCoverage, type FileCoverageResult } from '../shared/coverage-reports/load-coverage.js';

const DEFAULTS = { threshold: 50, minLines: 10, maxFindings: 100 };

const options = z
  .object({
    threshold: z.number().min(0).max(100).default(DEFAULTS.threshold),
    minLines: z.number().int().nonnegative().default(DEFAULTS.minLines),
    maxFindings: z.number().int().positive().default(DEFAULTS.maxFindings),
  })
  .strict()
  .default(DEFAULTS);

/** Confidence when the file changed after the report was written: its numbers may be out of date. */
const STALE_CONFIDENCE = 50;
const MAX_RANGES_LISTED = 5;

/** Consecutive uncovered lines as ranges; the longest one anchors the finding. */
export function uncoveredRanges(lines: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && line <= last[1] + 1) last[1] = Math.max(last[1], line);
    else ranges.push([line, line]);
  }
  return ranges;
}

function formatRange([from, to]: [number, number]): string {
  return from === to ? `${from}` : `${from}-${to}`;
}

export const lowCoverageFile = defineRule({
  kind: 'repository',
  meta: {
    id: 'low-coverage-file',
    description: 'Source files whose line coverage in the coverage report is below a threshold',
    category: 'testing',
    severity: 'low',
    metric: { values: ['coveragePct'], worseWhen: 'lower' },
    options,
    confidence: 85,
    docs: {
      whyItMatters:
        'Lines that no test runs can change behaviour without any test failing. A file with little coverage is ' +
        'where a regression is most likely to ship unnoticed.',
      suggestedAction:
        'Add tests that run the uncovered lines listed in the finding, starting with the longest uncovered range, ' + 'or delete the code if nothing needs it.',
    },
  },
  async analyze(context) {
    const { threshold, minLines, maxFindings } = context.options;
    const coverage = await loadCoverage(context.snapshot);
    if (coverage.reports.length === 0) return;
    // The product's files: a benchmark or an example that tests do not run is not under-tested.
    const sources = new Set(context.summaries.filter((s) => s.kind === 'source' && roleOfFile(s) === 'production' && !s.skipped).map((s) => s.path));
    const low = [...coverage.files.values()]
      .filter((file) => sources.has(file.path) && file.found >= minLines && file.pct < threshold)
      .sort((a, b) => a.pct - b.pct || b.found - a.found || a.path.localeCompare(b.path));
    const git = low.length > 0 ? await context.git() : undefined;
    for (const file of low.slice(0, maxFindings)) {
      const lastChange = git?.files.get(file.path)?.lastModified;
      const stale = lastChange !== undefined && Date.parse(lastChange) > file.reportMtimeMs;
      report(context.report, file, threshold, stale);
    }
  },
});

function report(emit: (descriptor: RepositoryReportDescriptor) => void, file: FileCoverageResult, threshold: number, stale: boolean): void {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  const ranges = uncoveredRanges(file.uncovered ?? []);
  const longest = ranges.reduce<[number, number] | undefined>((best, r) => (!best || r[1] - r[0] > best[1] - best[0] ? r : best), undefined);
  const listed = ranges.slice(0, MAX_RANGES_LISTED).map(formatRange).join(', ');
  emit({
    filePath: file.path,
    lineStart: longest?.[0] ?? 1,
    lineEnd: longest?.[1] ?? 1,
    title: `${name} has ${file.pct}% line coverage (threshold ${threshold}%)`,
    description:
      `${file.report} says ${file.hit} of ${file.found} instrumented lines of ${file.path} ran during the tests (${file.pct}%).` +
      (ranges.length > 0
        ? ` Uncovered: lines ${listed}${ranges.length > MAX_RANGES_LISTED ? ` and ${ranges.length - MAX_RANGES_LISTED} more ranges` : ''}.`
        : '') +
      (stale ? ' The file changed after the report was written, so the numbers may be out of date.' : ''),
    ...(stale ? { confidence: STALE_CONFIDENCE } : {}),
    data: { coveragePct: file.pct, linesFound: file.found, linesHit: file.hit, threshold },
  });
}
