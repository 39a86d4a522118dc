// Flags source modules that no entry point, test or configuration reaches through imports (knip's
// "unused files"). Modules imported only by other unreachable modules, dead import cycles among
// them, are the same finding: the description says which case it is.
import { defineRule, roleOfFile, type FileSummary } from '@codehealth/engine/kit';
import { z } from 'zod';
import { deadCodeModel } from '../shared/dead-code-model.js';

const LARGE_FILE_LINES = 300;
const STANDALONE_NAME = /(?:^|\/)(?:bin|scripts?)\/|(?:^|\/)(?:main|cli|server|worker|index|app)\.[^/]+$/;
const PARSED = new Set(['typescript', 'tsx', 'javascript', 'jsx']);

const options = z
  .object({ entries: z.array(z.string()).default([]) })
  .strict()
  .default({ entries: [] });

export const unusedFile = defineRule({
  kind: 'repository',
  meta: {
    id: 'unused-file',
    description: 'Source modules that no entry point, test or configuration reaches through imports',
    category: 'dead_code',
    severity: 'medium',
    source: 'graph_rule',
    options,
    confidence: 85,
    docs: {
      whyItMatters:
        'A module that nothing loads is still read, searched, type-checked, refactored and reviewed: it costs ' +
        'maintenance, misleads readers about what the program does, and hides real usages in search results.',
      suggestedAction:
        'Delete the file (and the modules only it imports). If it is loaded in a way the graph cannot see, ' +
        'declare it: list it in package.json (`bin`, `exports`, a script) or in the rule option `entries`.',
    },
  },
  async analyze(context) {
    const model = await deadCodeModel(context, { entries: context.options.entries });
    const dead = context.summaries.filter((s) => isCandidate(s) && !model.reachable.has(s.path));
    const deadPaths = new Set(dead.map((s) => s.path));
    let deadLines = 0;
    for (const summary of dead) {
      const { path } = summary;
      const importers = model.importersOf(path);
      const inCycle = model.graph.cycles.some((cycle) => cycle.includes(path) && cycle.every((p) => deadPaths.has(p)));
      const name = path.slice(path.lastIndexOf('/') + 1);
      const how =
        importers.length === 0
          ? 'No module imports it, and no entry point, test or configuration names it.'
          : `It is imported only by ${importers.length === 1 ? 'a module that is' : `${importers.length} modules that are`} ` +
            `unreachable themselves (${importers.slice(0, 3).join(', ')}${importers.length > 3 ? ', …' : ''})` +
            `${inCycle ? ', in an import cycle that nothing outside it enters' : ''}.`;
      let confidence = 90;
      const published = model.deepImportablePackage(path);
      if (model.maybeImportedUnresolved(path)) confidence = 50;
      else if (published !== undefined) confidence = 60;
      else if (importers.length === 0 && STANDALONE_NAME.test(path)) confidence = 70;
      deadLines += summary.lines.code;
      context.report({
        filePath: path,
        lineStart: 1,
        title: `Unused file ${name}`,
        description:
          `${path} (${summary.lines.code} lines of code) is not reachable from any entry point or test. ${how}` +
          (confidence === 50 ? ' An import that could not be resolved names a file like it, so check before deleting.' : '') +
          (published !== undefined && confidence === 60
            ? ` ${published} has no "exports" map, so its consumers may import this file by its path; check before deleting.`
            : ''),
        severity: summary.lines.code >= LARGE_FILE_LINES ? 'high' : 'medium',
        confidence,
        data: { linesOfCode: summary.lines.code, importers: importers.length, inDeadCycle: inCycle },
      });
    }
    context.metric('unusedFiles', dead.length);
    context.metric('unusedFileLinesOfCode', deadLines);
    context.metric('entryPoints', model.entries.size);
    context.metric('reachableSourceFiles', context.summaries.filter((s) => isCandidate(s) && model.reachable.has(s.path)).length);
  },
});

/**
 * Parsed production modules; declaration files and skipped files are never candidates, nor files
 * of other roles (benchmarks, examples, documentation sites, scripts): those are run, so they are roots.
 */
function isCandidate(summary: FileSummary): boolean {
  return summary.kind === 'source' && roleOfFile(summary) === 'production' && PARSED.has(summary.language) && !summary.skipped && !/\.d\.[mc]?ts$/.test(summary.path);
}
