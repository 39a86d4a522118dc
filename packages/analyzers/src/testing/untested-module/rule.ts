// Flags source modules with exported functions or classes that no test loads, riskiest first.
import { defineRule, type FileChurn, type FileSummary, type Severity } from '@codehealth/engine/kit';
import { z } from 'zod';
import { structuralCoverage } from '../shared/structural-coverage.js';
import { reachThroughUnparsed } from '../shared/unparsed-reach.js';
import { exportedClassNames, exportedFunctionNames, isInDoublesDirectory, isInMigrationsDirectory } from '../shared/test-code.js';

const DEFAULTS = { maxFindings: 50, mediumAtLines: 300, mediumAtFunctionLines: 50, mediumAtCommits90d: 5 };

const options = z
  .object({
    maxFindings: z.number().int().positive().default(DEFAULTS.maxFindings),
    mediumAtLines: z.number().int().positive().default(DEFAULTS.mediumAtLines),
    mediumAtFunctionLines: z.number().int().positive().default(DEFAULTS.mediumAtFunctionLines),
    mediumAtCommits90d: z.number().int().positive().default(DEFAULTS.mediumAtCommits90d),
  })
  .strict()
  .default(DEFAULTS);

type Options = z.infer<typeof options>;

interface Candidate {
  summary: FileSummary;
  units: string[];
  reasons: string[];
  commits90d: number;
}

const COMPLEXITY_RULE = 'code-smell/cognitive-complexity';

/** Why an untested module is riskier than most: size, a long or complex function, frequent change. */
function riskReasons(summary: FileSummary, churn: FileChurn | undefined, limits: Options): string[] {
  const reasons: string[] = [];
  if (summary.lines.code >= limits.mediumAtLines) reasons.push(`${summary.lines.code} lines of code`);
  const longest = summary.functions.reduce((best, fn) => (fn.loc > best.loc ? fn : best), { name: '', loc: 0 });
  if (longest.loc >= limits.mediumAtFunctionLines) reasons.push(`function ${longest.name} spans ${longest.loc} lines`);
  const complex = summary.findings.filter((f) => f.ruleId === COMPLEXITY_RULE).length;
  if (complex > 0) reasons.push(`${complex} function${complex === 1 ? '' : 's'} above the cognitive complexity threshold`);
  if (churn && churn.commits90d >= limits.mediumAtCommits90d) reasons.push(`changed in ${churn.commits90d} commits in 90 days`);
  return reasons;
}

function listNames(names: readonly string[], max = 5): string {
  const shown = names
    .slice(0, max)
    .map((name) => `\`${name}\``)
    .join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

export const untestedModule = defineRule({
  kind: 'repository',
  meta: {
    id: 'untested-module',
    description: 'Source modules with exported functions or classes that no test loads',
    category: 'testing',
    severity: 'info',
    options,
    confidence: 75,
    docs: {
      whyItMatters:
        'Code that no test loads can break without any test failing: regressions in it reach users first. ' +
        'Large, complex and frequently changed modules are where untested changes break most often.',
      suggestedAction:
        'Add a test file that imports the module and exercises its exported functions, starting with the riskiest ' + 'modules (the ones reported as medium).',
    },
  },
  async analyze(context) {
    const { summaries, graph, options: limits } = context;
    const structure = structuralCoverage(summaries, graph);
    if (structure.sourceModules.length === 0) return;
    if (structure.testFiles.length === 0) {
      reportNoTests(
        context.report,
        context.snapshot.files.some((f) => f.path === 'package.json'),
        structure.sourceModules,
      );
      return;
    }
    const git = await context.git();
    const candidates: Candidate[] = [];
    // Only when something looks untested: what tests load through generated or skipped files.
    const reached = structure.sourceModules.some((s) => !structure.reached.has(s.path))
      ? await reachThroughUnparsed(graph, structure.reached, context.snapshot)
      : structure.reached;
    for (const summary of structure.sourceModules) {
      if (reached.has(summary.path) || isInDoublesDirectory(summary.path) || isInMigrationsDirectory(summary.path)) continue;
      // A module the parser could not read whole: what it exports (and so what a test owes it) is not known.
      if (summary.parse.errorNodes > 0) continue;
      const units = [...exportedFunctionNames(summary), ...exportedClassNames(summary)];
      if (units.length === 0) continue;
      const churn = git.files.get(summary.path);
      candidates.push({ summary, units, reasons: riskReasons(summary, churn, limits), commits90d: churn?.commits90d ?? 0 });
    }
    candidates.sort(
      (a, b) =>
        Number(b.reasons.length > 0) - Number(a.reasons.length > 0) ||
        b.summary.lines.code - a.summary.lines.code ||
        a.summary.path.localeCompare(b.summary.path),
    );
    const shown = candidates.slice(0, limits.maxFindings);
    for (const { summary, units, reasons, commits90d } of shown) {
      // Notes (info): the panel's reviewers agreed with 28 of 42 (README); the measurement grades coverage.
      const severity: Severity = 'info';
      const name = summary.path.slice(summary.path.lastIndexOf('/') + 1);
      const firstExport = summary.module.exports.find((record) => record.name === units[0]);
      const cap = candidates.length > shown.length ? ` It is one of ${candidates.length} untested modules; the ${shown.length} riskiest are reported.` : '';
      context.report({
        filePath: summary.path,
        lineStart: firstExport?.line ?? 1,
        title: `No test loads ${name}`,
        description:
          `${summary.path} exports ${listNames(units)} but no test file imports it, directly or through the modules ` +
          `tests load (${summary.lines.code} lines of code).` +
          (reasons.length > 0 ? ` Reported as medium: ${reasons.join('; ')}.` : '') +
          cap,
        severity,
        data: { exports: units.length, codeLines: summary.lines.code, commits90d, untestedModules: candidates.length },
      });
    }
  },
});

/** A repository without test files gets one finding that says so, not one per module. */
function reportNoTests(
  report: (descriptor: { filePath: string; lineStart: number; title: string; description: string; severity: Severity; data: Record<string, number> }) => void,
  hasPackageJson: boolean,
  sourceModules: readonly FileSummary[],
): void {
  const largest = [...sourceModules].sort((a, b) => b.lines.code - a.lines.code || a.path.localeCompare(b.path))[0];
  report({
    filePath: hasPackageJson ? 'package.json' : largest.path,
    lineStart: 1,
    title: 'No test files in the repository',
    description:
      `None of the ${sourceModules.length} source modules is loaded by a test: no file matched the test patterns ` +
      '(`*.test.*`, `*.spec.*`, `test/`, `tests/`, `__tests__/`, `e2e/`...). If the tests live elsewhere ' +
      '(for example `spec/`), list them under `tests` in codehealth.config.json.',
    severity: 'medium',
    data: { sourceModules: sourceModules.length },
  });
}
