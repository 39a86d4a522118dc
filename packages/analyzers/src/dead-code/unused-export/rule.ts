// Flags exports of reachable source modules that no other module imports, resolving re-exports,
// barrels and `export *`; everything an entry point exposes counts as used. Types are reported
// apart from values and lower, as knip's `types` and `exports` categories.
import { defineRule, roleOfFile, type ExportRecord, type FileSummary, type Severity, type SymbolRecord } from '@codehealth/engine/kit';
import { z } from 'zod';
import { deadCodeModel } from '../shared/dead-code-model.js';
import { FILE_FACTS_COLLECTOR_ID, type DeadCodeFileFacts } from '../shared/file-facts.js';

const PARSED = new Set(['typescript', 'tsx', 'javascript', 'jsx']);
const KIND_WORD: Record<string, string> = {
  function: 'function',
  class: 'class',
  variable: 'variable',
  type: 'type',
  interface: 'interface',
  enum: 'enum',
  namespace: 'namespace',
  default: 'default export',
  're-export': 're-export',
};

const options = z
  .object({
    includeTypes: z.boolean().default(true),
    ignoreExportsUsedInFile: z.boolean().default(false),
    entries: z.array(z.string()).default([]),
  })
  .strict()
  .default({ includeTypes: true, ignoreExportsUsedInFile: false, entries: [] });

export const unusedExport = defineRule({
  kind: 'repository',
  meta: {
    id: 'unused-export',
    description: 'Exports of source modules that no other module imports, entry points excepted',
    category: 'dead_code',
    severity: 'medium',
    source: 'graph_rule',
    options,
    confidence: 90,
    autoFixable: true,
    docs: {
      whyItMatters:
        "An export nobody imports widens a module's surface for nothing: readers assume it is used elsewhere, " +
        'it cannot be changed without a search, and when it is not used inside its file either it is dead code.',
      suggestedAction:
        'Remove the `export` keyword; if the declaration is not used inside its file either, delete it. If it ' +
        'is public API loaded from outside the repository, expose it through an entry point in package.json.',
    },
  },
  async analyze(context) {
    const { includeTypes, ignoreExportsUsedInFile, entries } = context.options;
    const model = await deadCodeModel(context, { entries });
    let values = 0;
    let types = 0;
    let unread = 0;
    for (const summary of context.summaries) {
      // Exports of a benchmark, an example or a script are for whoever runs it, like a test's.
      if (
        summary.kind !== 'source' ||
        roleOfFile(summary) !== 'production' ||
        !PARSED.has(summary.language) ||
        summary.skipped ||
        !model.reachable.has(summary.path)
      )
        continue;
      // A module that did not parse cleanly has exports the parser could not place, and uses of
      // its exports inside the file that were not seen: it is not judged from partial lists.
      if (summary.module.partial) {
        unread++;
        continue;
      }
      const used = model.graph.usedExports(summary.path);
      // Most modules have every export used: nothing to group or look up for them.
      if (summary.module.exports.every((record) => used.has(record.name))) continue;
      const facts = summary.facts[`dead-code/${FILE_FACTS_COLLECTOR_ID}`] as DeadCodeFileFacts | undefined;
      const usedInFile = new Set(facts?.usedInFile ?? []);
      for (const [name, records] of groupByName(summary.module.exports)) {
        if (used.has(name)) continue;
        // `module.exports = { a, b }` is one object: reading any of its keys uses it.
        if (name === 'default' && summary.module.commonJs && used.size > 0) continue;
        const typeOnly = records.every((r) => r.typeOnly || r.kind === 'type' || r.kind === 'interface');
        if (typeOnly && !includeTypes) continue;
        const inFile = usedInFile.has(name);
        if (inFile && ignoreExportsUsedInFile) continue;
        if (typeOnly) types++;
        else values++;
        report(context, summary, name, records, {
          typeOnly,
          inFile,
          uncertain: model.maybeImportedUnresolved(summary.path),
          published: model.deepImportablePackage(summary.path),
        });
      }
    }
    context.metric('unusedExports', values);
    context.metric('unusedTypeExports', types);
    context.metric('modulesNotJudgedParseErrors', unread);
  },
});

interface Verdict {
  typeOnly: boolean;
  inFile: boolean;
  uncertain: boolean;
  /** The published package without an `exports` map the file is in: consumers may deep-import it. */
  published: string | undefined;
}

function report(
  context: Parameters<typeof unusedExport.analyze>[0],
  summary: FileSummary,
  name: string,
  records: ExportRecord[],
  { typeOnly, inFile, uncertain, published }: Verdict,
): void {
  const record = records.find((r) => r.kind !== 're-export') ?? records[0];
  const file = summary.path.slice(summary.path.lastIndexOf('/') + 1);
  const symbol = declarationOf(summary.module.symbols, name, record);
  const isReExport = record.kind === 're-export' || record.from !== undefined;
  const word = typeOnly && (record.kind === 're-export' || record.kind === 'default') ? 'type' : KIND_WORD[record.kind];
  const label = name === 'default' ? `default export${symbol && symbol.name !== 'default' ? ` ${symbol.name}` : ''}` : `${word} ${name}`;
  const title = isReExport
    ? `Unused re-export ${name === 'default' ? 'default' : name} in ${file}`
    : `Unused export${typeOnly ? 'ed type' : ''} ${name === 'default' ? 'default' : name} in ${file}`;
  const detail = isReExport
    ? `${summary.path} re-exports ${name} from ${record.from ?? 'another module'}, but no module imports it from ${file}.`
    : `The ${label} is exported from ${summary.path}, but no module imports it (entry points, tests and configuration included).`;
  const local = isReExport
    ? ' Remove it from the export list; the original declaration is reported on its own if nothing else uses it.'
    : inFile
      ? ' It is used inside the file, so only the export is unnecessary.'
      : ' It is not used inside the file either: the declaration itself is dead code.';
  let confidence = 90;
  if (summary.module.commonJs) confidence = 70;
  if (published !== undefined) confidence = 60;
  if (uncertain) confidence = 50;
  const caveat = published !== undefined ? ` ${published} has no "exports" map, so its consumers may import ${file} by its path.` : '';
  context.report({
    filePath: summary.path,
    lineStart: symbol?.lineStart ?? record.line,
    lineEnd: symbol?.lineEnd ?? record.line,
    title,
    description: detail + local + caveat,
    severity: severityOf(typeOnly, inFile || isReExport),
    confidence,
    symbol: symbol?.name && symbol.name !== 'default' ? symbol.name : name,
    data: { kind: record.kind, typeOnly, usedInFile: inFile },
  });
}

/** Values: `medium` when dead, `low` when only the export is; types one step lower. */
function severityOf(typeOnly: boolean, onlyTheExport: boolean): Severity {
  if (typeOnly) return onlyTheExport ? 'info' : 'low';
  return onlyTheExport ? 'low' : 'medium';
}

/** Declaration merging exports one name several times (`class X` and `interface X`): one finding. */
function groupByName(records: readonly ExportRecord[]): Map<string, ExportRecord[]> {
  const out = new Map<string, ExportRecord[]>();
  for (const record of records) {
    const list = out.get(record.name);
    if (list) list.push(record);
    else out.set(record.name, [record]);
  }
  return out;
}

/** The declaration an export statement declares (`export function f`); lists and re-exports have none. */
function declarationOf(symbols: readonly SymbolRecord[], name: string, record: ExportRecord): SymbolRecord | undefined {
  if (record.kind === 're-export') return undefined;
  return symbols.find((s) => !s.container && s.lineStart === record.line && (s.name === name || name === 'default'));
}
