// Per-file facts for promises that cross module boundaries: which exports are async functions,
// and which statements drop the result of a call to an imported function. JSON-serialisable.
import { isFunctionNode, enclosingSymbol } from '@codehealth/engine/kit';
import type { Collector, SyntaxNode } from '@codehealth/engine/kit';
import { droppedParts } from '../shared/dropped-values.js';
import { bodyCatchesEverything } from '../shared/guards.js';
import { resolveLocalName } from '../shared/scope.js';
import { calleeOf, isAsyncFunction, memberObject, propertyName } from '../shared/syntax.js';

export const ASYNC_CALLS_COLLECTOR = 'async-calls';

export interface AsyncExport {
  name: string;
  line: number;
}

export interface DroppedImportCall {
  /** The import specifier as written (`./mailer`). */
  specifier: string;
  /** The name exported by that module (`default` for default imports). */
  imported: string;
  /** The call as shown in titles: `sendMail()`, `mailer.send()`. */
  label: string;
  line: number;
  endLine: number;
  symbol?: string;
}

export interface AsyncCallFacts {
  /** Async functions and methods declared in the file (async generators excluded). */
  asyncFunctions: number;
  /** Exports bound to module-level async functions that can reject. */
  asyncExports: AsyncExport[];
  droppedCalls: DroppedImportCall[];
}

/** The module-level binding name of an async function, and the name it is exported under directly. */
function moduleLevelName(fn: SyntaxNode): { local?: string; exported?: string } {
  const parent = fn.parent;
  if (fn.type === 'function_declaration') {
    const local = fn.childForFieldName('name')?.text;
    if (parent?.type === 'program') return { local };
    if (parent?.type === 'export_statement') return { local, exported: parent.children.some((c) => c.type === 'default') ? 'default' : local };
    return {};
  }
  if (parent?.type === 'export_statement') return { exported: 'default' };
  const declaration = parent?.type === 'variable_declarator' ? parent.parent : undefined;
  if (declaration?.type !== 'lexical_declaration' || declaration.childForFieldName('kind')?.text !== 'const') return {};
  const local = parent!.childForFieldName('name')?.text;
  if (declaration.parent?.type === 'program') return { local };
  return declaration.parent?.type === 'export_statement' ? { local, exported: local } : {};
}

interface ImportedName {
  specifier: string;
  /** The exported name (`default` for a default import, `*` for a namespace). */
  imported: string;
}

/** `f()` of an imported `f`, or `ns.f()` of a namespace import: the module and the name it exports. */
function importedCallee(call: SyntaxNode, imports: ReadonlyMap<string, ImportedName>): Omit<DroppedImportCall, 'line' | 'endLine' | 'symbol'> | undefined {
  const callee = calleeOf(call);
  const local = callee?.type === 'identifier' ? callee : callee?.type === 'member_expression' ? memberObject(callee) : undefined;
  const origin = local?.type === 'identifier' ? imports.get(local.text) : undefined;
  if (!callee || !local || !origin) return undefined;
  // A module-level redeclaration of an imported name is an error, so only inner scopes can shadow it.
  if (resolveLocalName(local.text, call)) return undefined;
  if (callee.type === 'identifier')
    return origin.imported === '*' ? undefined : { specifier: origin.specifier, imported: origin.imported, label: `${callee.text}()` };
  const method = propertyName(callee);
  return origin.imported === '*' && method ? { specifier: origin.specifier, imported: method, label: `${callee.text}()` } : undefined;
}

/**
 * The bindings of an import declaration's text: `import d, { a, b as c, type T } from 'x'`,
 * `import * as ns from 'x'`. Type-only imports bind nothing callable and are left out.
 */
export function parseImport(text: string): Array<[string, ImportedName]> {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  const match = /^import\s+(type\s+)?([\s\S]*?)\s*from\s*(['"])(.*?)\3/.exec(code);
  if (!match || match[1]) return [];
  const specifier = match[4];
  const bindings: Array<[string, ImportedName]> = [];
  let clause = match[2].trim();
  const named = /\{([\s\S]*)\}/.exec(clause);
  if (named) {
    for (const part of named[1].split(',')) {
      const words = part.trim().split(/\s+/).filter(Boolean);
      if (words.length === 0 || words[0] === 'type') continue;
      const local = words[2] ?? words[0];
      if (words[1] === undefined || words[1] === 'as') bindings.push([local, { specifier, imported: words[0].replace(/^['"]|['"]$/g, '') }]);
    }
    clause = clause.replace(named[0], '');
  }
  const namespace = /\*\s*as\s+([\w$]+)/.exec(clause);
  if (namespace) bindings.push([namespace[1], { specifier, imported: '*' }]);
  const defaultName = /^([\w$]+)\s*(,|$)/.exec(clause.trim());
  if (defaultName) bindings.push([defaultName[1], { specifier, imported: 'default' }]);
  return bindings;
}

export const asyncCallsCollector: Collector<AsyncCallFacts> = {
  id: ASYNC_CALLS_COLLECTOR,
  create({ source }) {
    const facts: AsyncCallFacts = { asyncFunctions: 0, asyncExports: [], droppedCalls: [] };
    const moduleAsync = new Map<string, SyntaxNode>();
    const exportedLocals: Array<[string, string]> = [];
    const imports = new Map<string, ImportedName>();
    const candidates: SyntaxNode[] = [];
    const mayImport = source.includes('import');
    return {
      visitor: {
        async(token) {
          const fn = token.parent;
          if (!fn || !isFunctionNode(fn) || !isAsyncFunction(fn)) return;
          facts.asyncFunctions++;
          const { local, exported } = moduleLevelName(fn);
          if (bodyCatchesEverything(fn)) return;
          if (local) moduleAsync.set(local, fn);
          if (exported) facts.asyncExports.push({ name: exported, line: fn.startPosition.row + 1 });
        },
        import_statement(node) {
          // Read from the text: one native call instead of one per clause part and specifier.
          for (const [local, origin] of parseImport(source.slice(node.startIndex, node.endIndex))) imports.set(local, origin);
        },
        export_statement(node) {
          // `export const …`, `export function …` and the like, the common forms, are settled by the text.
          if (!/^export\s*(\{|default\s+[\w$]+\s*;?\s*$)/.test(source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 200)))) return;
          const first = node.firstNamedChild;
          if (first?.type === 'identifier' && node.childForFieldName('value')?.id === first.id) exportedLocals.push([first.text, 'default']);
          if (first?.type !== 'export_clause' || node.childForFieldName('source')) return;
          for (const specifier of first.namedChildren) {
            const local = specifier.childForFieldName('name')?.text;
            const alias = specifier.childForFieldName('alias')?.text;
            if (local) exportedLocals.push([local, alias ?? local]);
          }
        },
        expression_statement(node) {
          if (mayImport) candidates.push(node);
        },
        'program:exit'() {
          for (const [local, exported] of exportedLocals) {
            const fn = moduleAsync.get(local);
            if (fn) facts.asyncExports.push({ name: exported, line: fn.startPosition.row + 1 });
          }
          if (imports.size === 0) return;
          for (const statement of candidates) {
            const expression = statement.firstNamedChild;
            if (!expression) continue;
            // On a tree with errors `hasError` asks the binding: only statements that would report ask.
            let clean: boolean | undefined;
            for (const part of droppedParts(expression)) {
              if (part.type !== 'call_expression') continue;
              const callee = importedCallee(part, imports);
              if (!callee) continue;
              if (!(clean ??= !statement.hasError)) break;
              const symbol = enclosingSymbol(part);
              facts.droppedCalls.push({ ...callee, line: part.startPosition.row + 1, endLine: part.endPosition.row + 1, ...(symbol ? { symbol } : {}) });
            }
          }
        },
      },
      result: () => facts,
    };
  },
};
