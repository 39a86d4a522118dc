// Why CodeHealth and knip disagree on one unused export, type or file: each rule below names a
// known, checked difference of method; anything else is 'unclassified' and fails the agreement test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileKind, FileSummary } from '@codehealth/engine';
import type { DeadCodeModel } from '../../packages/analyzers/src/dead-code/shared/dead-code-model.js';
import { FILE_FACTS_COLLECTOR_ID, type DeadCodeFileFacts } from '../../packages/analyzers/src/dead-code/shared/file-facts.js';
import type { KnipIssue } from './knip.js';

export interface ClassifierFacts {
  /** Absolute root of the corpus, to read a file's text. */
  root: string;
  files: Map<string, FileKind>;
  summaries: readonly FileSummary[];
  model: DeadCodeModel;
}

interface Issue {
  type: 'export' | 'type' | 'file';
  file: string;
  name?: string;
}

export const UNCLASSIFIED = 'unclassified';

export function classifyDisagreement(side: 'ours' | 'knip', issue: Issue, facts: ClassifierFacts, knip: ReadonlyMap<string, KnipIssue>): string {
  return side === 'knip' ? whyKnipOnly(issue, facts) : whyOursOnly(issue, facts, knip);
}

function whyKnipOnly(issue: Issue, { files, summaries, model }: ClassifierFacts): string {
  const kind = files.get(issue.file);
  if (kind === 'test') return 'test or fixture file: CodeHealth classifies it as test code (a fixtures/ or test/ directory) and never reports it';
  if (kind === 'generated') return 'build output (dist/, bundles): CodeHealth does not analyse generated files';
  if (kind === 'config') return 'configuration file: CodeHealth does not report configs';
  const summary = summaries.find((s) => s.path === issue.file);
  if (!summary || summary.skipped) return 'file CodeHealth does not parse';
  const entry = model.entries.get(issue.file);
  if (entry) {
    const how = entry.startsWith('package.json') ? ' (knip takes the build output the manifest names as the entry)' : '';
    return `entry point knip did not map to its source file${how}: ${entry.replace(/ of \S+$/, '')}`;
  }
  if (issue.type === 'file') {
    if (!model.reachable.has(issue.file)) return UNCLASSIFIED;
    if (!fromEntries(model).has(issue.file)) {
      return 'reachable only from test code: CodeHealth treats every file under test/ (helpers, comparisons) as a test root; knip only its test-file patterns';
    }
    return 'imported by a module reachable only through an entry point knip did not map to its source file';
  }
  if (!model.reachable.has(issue.file)) return 'CodeHealth reports the whole file as unused (unused-file), not its exports';
  if (!model.graph.usedExports(issue.file).has(issue.name!)) return UNCLASSIFIED;
  const module = model.graph.modules.get(issue.file);
  const importers = model.graph.modules.get(issue.file)?.importedBy ?? [];
  const namespaceUse = importers.some((p) =>
    (model.graph.modules.get(p)?.imports ?? []).some((e) => e.to === issue.file && e.names.includes('*') && e.kind !== 're-export-all'),
  );
  if (namespaceUse) return 'namespace import usage (`import * as ns`, `import()` or a whole `require()`): every export counts as used';
  const users = importers.filter((p) => (model.graph.modules.get(p)?.imports ?? []).some((e) => e.to === issue.file && e.names.includes(issue.name!)));
  if (users.length > 0 && users.every((p) => !model.reachable.has(p))) {
    return 'used only by modules that are unreachable themselves (reported by unused-file): knip ignores their imports, CodeHealth reports the files first';
  }
  if (module && importers.some((p) => model.entries.has(p) && reExports(model, p, issue.file))) {
    return 're-exported by an entry point knip did not map to its source file';
  }
  return 'used through a re-export chain from a module knip does not treat as reachable';
}

function whyOursOnly(issue: Issue, facts_: ClassifierFacts, knip: ReadonlyMap<string, KnipIssue>): string {
  if (issue.type === 'file') return UNCLASSIFIED;
  if (knip.has(`file ${issue.file}`)) return 'knip reports the whole file as unused';
  const { summaries } = facts_;
  const summary = summaries.find((s) => s.path === issue.file);
  const facts = summary?.facts[`dead-code/${FILE_FACTS_COLLECTOR_ID}`] as DeadCodeFileFacts | undefined;
  const usedInFile = facts?.usedInFile.includes(issue.name!) ?? false;
  const record = summary?.module.exports.find((r) => r.name === issue.name);
  if (record?.from !== undefined && record.kind !== 're-export') {
    return 'export of an imported binding (`import { x } …; export { x }`): knip does not report it';
  }
  if (record?.kind === 're-export' && record.from !== undefined && summary?.module.imports.some((i) => i.specifier === record.from && i.kind !== 're-export')) {
    return 'export of an imported binding (`import { x } …; export { x }`): knip does not report it';
  }
  if (usedInFile && summary && referencedByUsedValueExport(issue.name!, summary, facts_)) {
    return issue.type === 'type'
      ? 'type referenced in the declaration of a used exported value of its file: knip counts it as used (ours: severity info)'
      : 'value referenced in the declaration of a used exported value of its file: knip counts it as used (ours: severity low)';
  }
  return UNCLASSIFIED;
}

const VALUE_KINDS = new Set(['function', 'class', 'variable', 'enum']);

/** knip's `referencedIn`: the name occurs inside an exported function, class or variable that is used. */
function referencedByUsedValueExport(name: string, summary: FileSummary, { root, model }: ClassifierFacts): boolean {
  const lines = readFileSync(join(root, summary.path), 'utf8').split('\n');
  const used = model.graph.usedExports(summary.path);
  const word = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  return summary.module.symbols.some(
    (s) =>
      s.exported &&
      !s.container &&
      VALUE_KINDS.has(s.kind) &&
      s.name !== name &&
      (used.has(s.name) || model.entries.has(summary.path)) &&
      word.test(lines.slice(s.lineStart - 1, s.lineEnd).join('\n')),
  );
}

const entryReach = new WeakMap<DeadCodeModel, Set<string>>();

function fromEntries(model: DeadCodeModel): Set<string> {
  let reach = entryReach.get(model);
  if (!reach) entryReach.set(model, (reach = model.graph.reachableFrom(model.entries.keys())));
  return reach;
}

function reExports(model: DeadCodeModel, from: string, to: string): boolean {
  return (model.graph.modules.get(from)?.imports ?? []).some((e) => e.to === to && (e.kind === 're-export' || e.kind === 're-export-all'));
}
