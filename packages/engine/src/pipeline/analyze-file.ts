// The per-file pass: parse once, walk once with every subscriber (summary extractors, file rules,
// collectors), and return the file's compact summary. Runs in worker threads or in process.
import { createHash } from 'node:crypto';
import type { SyntaxNode } from 'tree-sitter';
import type { NodeVisitor, ReportDescriptor } from '../contracts/analyzer.js';
import type { Finding } from '../domain/types.js';
import type { RepoFile } from '../snapshot/types.js';
import { parseWithRepairs, isParsedLanguage } from '../parsing/parser.js';
import { buildDispatcher, walkTree } from '../parsing/walk.js';
import { FlatTree } from '../parsing/flat-tree.js';
import { treeErrorsOf } from '../parsing/parse-errors.js';
import { FUNCTION_NODE_TYPES, functionNameOf } from '../parsing/functions.js';
import { createModuleFactsVisitor } from '../graph/extract-module-facts.js';
import { type RuleSet, ruleAppliesTo } from '../plugins/rule-set.js';
import type { FileSummary, FunctionSummary } from './file-summary.js';
import { buildFinding, lineTableOf, splitLines, type LineTable } from './findings.js';
import { createLineCounter } from './line-counts.js';

export function contentHashOf(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function emptyFacts(): FileSummary['module'] {
  return { imports: [], exports: [], symbols: [], commonJs: false };
}

/** A summary for a file that is inventoried but not parsed (other languages, skipped files). */
export function unparsedSummary(file: RepoFile, source: string | undefined, skipped?: string): FileSummary {
  const lines = source === undefined ? [] : splitLines(source);
  const total = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const blank = lines.slice(0, total).filter((l) => l.trim() === '').length;
  return {
    path: file.path,
    contentHash: source === undefined ? '' : contentHashOf(source),
    language: file.language,
    kind: file.kind,
    ...(file.role ? { role: file.role } : {}),
    lines: { total, blank, comment: 0, code: total - blank },
    parse: { errorNodes: 0, errorBytes: 0, cleanRatio: 1, parseMs: 0 },
    module: emptyFacts(),
    functions: [],
    findings: [],
    facts: {},
    ...(skipped ? { skipped } : {}),
  };
}

/** Functions in walk order; their `loc` (non-blank lines) is filled in after the walk, from one pass over the text. */
function functionCollector(out: FunctionSummary[]): NodeVisitor {
  const visitor: NodeVisitor = {};
  const onFunction = (node: SyntaxNode) => {
    const params = node.childForFieldName('parameters');
    const paramCount = params ? params.namedChildren.filter((p) => p.type !== 'comment').length : node.childForFieldName('parameter') ? 1 : 0;
    const lineStart = node.startPosition.row + 1;
    const lineEnd = node.endPosition.row + 1;
    out.push({ name: functionNameOf(node), lineStart, lineEnd, params: paramCount, loc: 0 });
  };
  for (const type of FUNCTION_NODE_TYPES) visitor[type] = onFunction;
  return visitor;
}

/**
 * Parses and analyses one file's source with the given rule set. Never throws for bad code.
 * `contentHash`, when the caller hashed the text already (the assessment's cache look-up), must be
 * {@link contentHashOf}(source); it spares hashing the text a second time.
 */
export function analyzeFileSource(file: RepoFile, source: string, ruleSet: RuleSet, contentHash?: string): FileSummary {
  if (!isParsedLanguage(file.language)) return unparsedSummary(file, source);
  const started = performance.now();
  // A tree repaired for the grammar's gaps (parse-repair.ts) has the original's offsets: it is
  // recorded with the original text, which rules and findings read.
  const { tree: native, repairs } = parseWithRepairs(source, file.language);
  const parseMs = performance.now() - started;
  // Rules ask the tree many questions; the flat copy answers them without native calls.
  const tree = FlatTree.from(native, source);
  // Lines are needed for findings' snippets only (split ones for text with a lone `\r`): most files have none.
  let lines: LineTable | undefined;
  // The tree's row starts are those lines' starts (and are there already when a finding was placed by its node).
  const linesOf = (): LineTable => (lines ??= lineTableOf(source, tree.lineStartOffsets()));

  const findings: Finding[] = [];
  const functions: FunctionSummary[] = [];
  const lineCounter = createLineCounter(source, () => splitLines(source));
  const moduleFacts = createModuleFactsVisitor({ source, language: file.language });
  const visitors: NodeVisitor[] = [lineCounter.visitor, moduleFacts.visitor, functionCollector(functions)];

  const analyzerById = new Map(ruleSet.analyzers.map((a) => [a.id, a]));
  for (const active of ruleSet.fileRules) {
    if (!ruleAppliesTo(active, analyzerById.get(active.analyzerId), file)) continue;
    const origin = { analyzerId: active.analyzerId, meta: active.rule.meta, severityOverride: active.severityOverride };
    visitors.push(
      active.rule.create({
        file,
        source,
        options: active.options,
        report: (descriptor: ReportDescriptor) => findings.push(buildFinding(origin, file.path, linesOf(), descriptor)),
      }),
    );
  }
  const collected: Array<{ id: string; result: () => unknown }> = [];
  for (const { analyzerId, collector } of ruleSet.collectors) {
    if (collector.languages && !collector.languages.includes(file.language)) continue;
    const instance = collector.create({ file, source });
    visitors.push(instance.visitor);
    collected.push({ id: `${analyzerId}/${collector.id}`, result: instance.result });
  }

  walkTree(tree, buildDispatcher(visitors));
  for (const f of functions) f.loc = lineCounter.nonBlankLines(f.lineStart - 1, f.lineEnd - 1);

  const facts: Record<string, unknown> = {};
  for (const c of collected) facts[c.id] = c.result();
  const bytes = Buffer.byteLength(source, 'utf8');
  const { errorNodes, errorBytes, firstErrorLine } = treeErrorsOf(tree);
  return {
    path: file.path,
    contentHash: contentHash ?? contentHashOf(source),
    language: file.language,
    kind: file.kind,
    ...(file.role ? { role: file.role } : {}),
    lines: lineCounter.count(),
    parse: {
      errorNodes,
      errorBytes,
      cleanRatio: bytes === 0 ? 1 : Math.max(0, 1 - errorBytes / bytes),
      parseMs,
      ...(firstErrorLine === undefined ? {} : { firstErrorLine }),
      ...(repairs > 0 ? { repairs } : {}),
    },
    module: moduleFacts.result(),
    functions,
    findings,
    facts,
  };
}
