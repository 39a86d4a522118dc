// Flags source modules that no entry point, test or configuration reaches through imports (knip's
// "unused files"). Modules imported only by other unreachable modules, dead import cycles among
// them, are the same finding: the description says which case it is.
import { defineRule, roleOfFile, type FileSummary } from '@codehealth/engine/kit';
import { z } from 'zod';
import { deadCodeModel } from '../shared/dead-code-model.js';

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
    severity: 'info',
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
    const paths = new Set(context.summaries.map((s) => s.path));
    const dead = context.summaries.filter(
      (s) => isCandidate(s) && !model.reachable.has(s.path) && !isLoadedUnseen(s.path, paths, model.packageOf(s.path), model.packagesWithEntries),
    );
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
        severity: 'info',
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

/** Folders a runner lists rather than imports: knex/typeorm/sequelize migrations and seeds. */
const LISTED_FOLDER = /^(?:migrations?|[\w-]*_migrations|seeds?|seeders)$/i;
/** Folders a server or bundler serves as they are, at a package's root. */
const SERVED_FOLDER = new Set(['public', 'static']);
const JS_EXTENSION = /\.(?:m|c)?jsx?$/;

/**
 * Files whose loader the graph cannot see, so that "unused" would be a guess: a JavaScript twin of
 * a TypeScript file (`util.js` beside `util.ts`, compiled and committed: Node loads the `.js`, the
 * graph resolves the `.ts`), files in migration and seed folders (a runner lists the folder), files
 * a server serves as they are (`public/`, `static/` at a package's root), and the files of a
 * package for which no entry point was found at all (how it is run is unknown).
 */
function isLoadedUnseen(path: string, paths: ReadonlySet<string>, packageDir: string | undefined, withEntries: ReadonlySet<string>): boolean {
  const match = JS_EXTENSION.exec(path);
  if (match) {
    const stem = path.slice(0, match.index);
    if (['.ts', '.tsx', '.mts', '.cts'].some((ext) => paths.has(stem + ext))) return true;
  }
  const dirs = path.split('/').slice(0, -1);
  if (dirs.some((d) => LISTED_FOLDER.test(d))) return true;
  const inPackage =
    packageDir === undefined || packageDir === ''
      ? dirs
      : path
          .slice(packageDir.length + 1)
          .split('/')
          .slice(0, -1);
  if (inPackage.length > 0 && SERVED_FOLDER.has(inPackage[0])) return true;
  return packageDir !== undefined && !withEntries.has(packageDir);
}

/**
 * Parsed production modules; declaration files and skipped files are never candidates, nor files
 * of other roles (benchmarks, examples, documentation sites, scripts): those are run, so they are roots.
 */
function isCandidate(summary: FileSummary): boolean {
  return (
    summary.kind === 'source' && roleOfFile(summary) === 'production' && PARSED.has(summary.language) && !summary.skipped && !/\.d\.[mc]?ts$/.test(summary.path)
  );
}
