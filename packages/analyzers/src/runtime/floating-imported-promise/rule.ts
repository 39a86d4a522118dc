// Flags statements that drop the promise of an async function imported from another module of the
// repository (the cross-module half of floating-promise), and publishes the analyzer's promise metrics.
import { defineRule, type CodeGraph, type FileSummary } from '@codehealth/engine/kit';
import { titleSymbol } from '../shared/syntax.js';
import { ASYNC_CALLS_COLLECTOR, type AsyncCallFacts, type AsyncExport } from './collector.js';

const FACTS_KEY = `runtime/${ASYNC_CALLS_COLLECTOR}`;
/** Re-export chains longer than this are not followed (and do not occur in practice). */
const MAX_HOPS = 8;

interface Declaration extends AsyncExport {
  path: string;
}

function factsOf(summary: FileSummary | undefined): AsyncCallFacts | undefined {
  return summary?.facts[FACTS_KEY] as AsyncCallFacts | undefined;
}

/** The module an import specifier of `from` resolves to inside the repository. */
function resolved(graph: CodeGraph, from: string, specifier: string): string | undefined {
  return graph.modules.get(from)?.imports.find((edge) => edge.specifier === specifier && edge.to)?.to;
}

/** The async function `name` exported by `path` stands for, following re-exports and `export *`. */
function asyncDeclaration(graph: CodeGraph, byPath: ReadonlyMap<string, FileSummary>, path: string, name: string, hops = 0): Declaration | undefined {
  if (hops > MAX_HOPS) return undefined;
  const own = factsOf(byPath.get(path))?.asyncExports.find((e) => e.name === name);
  if (own) return { ...own, path };
  const module = graph.modules.get(path);
  if (!module) return undefined;
  const reexport = module.exports.find((e) => e.name === name && e.from);
  if (reexport) {
    const target = resolved(graph, path, reexport.from!);
    return target ? asyncDeclaration(graph, byPath, target, reexport.importedName ?? name, hops + 1) : undefined;
  }
  if (name === 'default') return undefined;
  for (const edge of module.imports) {
    if (edge.kind !== 're-export-all' || !edge.to) continue;
    const found = asyncDeclaration(graph, byPath, edge.to, name, hops + 1);
    if (found) return found;
  }
  return undefined;
}

export const floatingImportedPromise = defineRule({
  kind: 'repository',
  meta: {
    id: 'floating-imported-promise',
    description: 'Statements that drop the promise of an async function imported from another module',
    category: 'runtime',
    // Demoted to info with runtime/floating-promise (issue 17): the same claim, measured under the bar.
    severity: 'info',
    confidence: 90,
    docs: {
      whyItMatters:
        'Calling an imported async function without awaiting or handling its promise fails silently: a rejection becomes ' +
        'an unhandled rejection (Node.js 15+ terminates the process) and the caller continues before the work is done. ' +
        'Across modules this is easy to miss, because nothing at the call site says the function is async.',
      suggestedAction:
        'await the call (or return its promise) so failures reach the caller; for deliberate background work attach a ' +
        '`.catch()` that reports the error and mark the call with `void`.',
    },
  },
  analyze(context) {
    const byPath = new Map(context.summaries.map((summary) => [summary.path, summary]));
    let asyncFunctions = 0;
    let floating = 0;
    for (const summary of context.summaries) {
      if (summary.kind !== 'source') continue;
      floating += summary.findings.filter((finding) => finding.ruleId === 'runtime/floating-promise').length;
      const facts = factsOf(summary);
      if (!facts) continue;
      asyncFunctions += facts.asyncFunctions;
      for (const call of facts.droppedCalls) {
        const target = resolved(context.graph, summary.path, call.specifier);
        const declaration = target && asyncDeclaration(context.graph, byPath, target, call.imported);
        if (!declaration) continue;
        floating++;
        const where = call.symbol ? titleSymbol(call.symbol) : summary.path.slice(summary.path.lastIndexOf('/') + 1);
        const shown = declaration.name === 'default' ? 'the default export' : `\`${declaration.name}\``;
        context.report({
          filePath: summary.path,
          lineStart: call.line,
          lineEnd: call.endLine,
          title: `Unhandled promise from ${call.label} in ${where}`,
          description:
            `${shown} is declared \`async\` in ${declaration.path} (line ${declaration.line}), so \`${call.label}\` returns a promise; ` +
            `the statement on line ${call.line}${call.symbol ? ` in \`${call.symbol}\`` : ''} drops it without \`await\`, \`return\`, \`void\` ` +
            'or a rejection handler: a rejection becomes an unhandled rejection and the code that follows runs before the work has finished.',
          ...(call.symbol ? { symbol: call.symbol } : {}),
          data: { promise: call.label, declaredIn: declaration.path },
        });
      }
    }
    context.metric('asyncFunctions', asyncFunctions);
    context.metric('floatingPromises', floating);
  },
});
