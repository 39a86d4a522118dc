// Flags god modules: large (many exported symbols over substantial code, or very many lines) and
// central (imported by many other source modules), so their size spreads into all that depends on them.
import { defineRule, roleOfFile, type FileSummary } from '@codehealth/engine/kit';
import { z } from 'zod';

const DEFAULTS = { maxExports: 30, minLinesForExports: 500, maxLines: 1500, minDependents: 15 };

const options = z
  .object({
    maxExports: z.number().int().positive().default(DEFAULTS.maxExports),
    minLinesForExports: z.number().int().nonnegative().default(DEFAULTS.minLinesForExports),
    maxLines: z.number().int().positive().default(DEFAULTS.maxLines),
    minDependents: z.number().int().nonnegative().default(DEFAULTS.minDependents),
  })
  .strict()
  .default(DEFAULTS);

const CODE_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript', 'jsx']);

/** Exports the module declares itself and that exist at run time: not re-exports, not types. */
export function ownRuntimeExports(summary: FileSummary): string[] {
  return summary.module.exports
    .filter((record) => record.from === undefined && !record.typeOnly && record.kind !== 'type' && record.kind !== 'interface')
    .map((record) => record.name);
}

/**
 * Lines of code outside top-level type declarations (interfaces and type aliases): a module of
 * types couples no behaviour, however many modules import it. A declaration's lines include the
 * comments inside it, so this leans towards fewer lines, never more than the file's code lines.
 */
export function runtimeCodeLines(summary: FileSummary): number {
  const typeLines = summary.module.symbols
    .filter((symbol) => symbol.container === undefined && (symbol.kind === 'interface' || symbol.kind === 'type'))
    .reduce((sum, symbol) => sum + symbol.lineEnd - symbol.lineStart + 1, 0);
  return Math.max(0, summary.lines.code - typeLines);
}

export const godModule = defineRule({
  kind: 'repository',
  meta: {
    id: 'god-module',
    description: 'Modules that are both large (many exports or lines) and imported by many other modules',
    category: 'code_smell',
    severity: 'info',
    metric: { values: ['lines', 'exports'] },
    options,
    confidence: 70,
    docs: {
      whyItMatters:
        'A large module that many others import couples them all: any change to it can affect every dependent, ' +
        'it is edited by everyone (merge conflicts, review load), and its unrelated parts cannot be understood, ' +
        'tested or released apart.',
      suggestedAction:
        'Split the module by responsibility into smaller modules, move each group of exports next to the code ' +
        'that uses it, and update importers to the new paths (a temporary re-exporting barrel eases the move).',
    },
  },
  analyze(context) {
    const { maxExports, minLinesForExports, maxLines, minDependents } = context.options;
    // The product's modules: a module is central when the product depends on it, not when
    // benchmarks, examples, documentation sites or scripts do (as tests do not make it central).
    const isProduct = (s: FileSummary) => s.kind === 'source' && roleOfFile(s) === 'production';
    const sources = new Set(context.summaries.filter(isProduct).map((s) => s.path));
    for (const summary of context.summaries) {
      if (!isProduct(summary) || summary.skipped || !CODE_LANGUAGES.has(summary.language)) continue;
      const exports = ownRuntimeExports(summary).length;
      // Type declarations are not counted: a types module is imported by many, and that is its job.
      const lines = runtimeCodeLines(summary);
      // Many small exports (a data type's combinators, a facade) are an API, not a god: they need code behind them.
      const wideApi = exports > maxExports && lines > minLinesForExports;
      const huge = lines > maxLines;
      if (!wideApi && !huge) continue;
      const dependents = (context.graph.modules.get(summary.path)?.importedBy ?? []).filter((path) => sources.has(path));
      if (dependents.length <= minDependents) continue;
      const name = summary.path.slice(summary.path.lastIndexOf('/') + 1);
      const why = [
        wideApi ? `${exports} run-time exports (more than ${maxExports}) over ${lines} lines of run-time code (more than ${minLinesForExports})` : '',
        huge ? `${lines} lines of run-time code (more than ${maxLines})` : '',
      ].filter(Boolean);
      context.report({
        filePath: summary.path,
        lineStart: 1,
        title: `God module: ${name} has ${exports} run-time export${exports === 1 ? '' : 's'} and ${lines} lines of run-time code and is imported by ${dependents.length} modules`,
        description:
          `${summary.path} is large, with ${why.join(' and ')}, and central: ${dependents.length} source modules import it ` +
          `directly (more than ${minDependents}), for example ${dependents.slice(0, 3).join(', ')}.`,
        severity: 'info',
        data: { exports, lines, dependents: dependents.length },
      });
    }
  },
});
