// Per-file facts for promises that cross module boundaries: which exports are async functions,
// and which statements drop the result of a call to an imported function. JSON-serialisable.
import type { Collector, SyntaxNode } from '@codehealth/engine';
import { isFunctionNode } from '../../shared/functions.js';
import { enclosingSymbol } from '../../shared/enclosing-symbol.js';
import { droppedParts } from '../shared/dropped-values.js';
import { bodyCatchesEverything } from '../shared/guards.js';
import { resolveName } from '../shared/scope.js';
import { calleeOf, isAsyncFunction, memberObject, propertyName, stringLiteralValue } from '../shared/syntax.js';

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

function importSpecifierOf(binding: SyntaxNode): string | undefined {
  let statement: SyntaxNode | null = binding;
  while (statement && statement.type !== 'import_statement') statement = statement.parent;
  const source = statement?.childForFieldName('source');
  return source ? stringLiteralValue(source) : undefined;
}

/** `f()` of an imported `f`, or `ns.f()` of a namespace import: the module and the name it exports. */
function importedCallee(call: SyntaxNode, imported: ReadonlySet<string>): Omit<DroppedImportCall, 'line' | 'endLine' | 'symbol'> | undefined {
  const callee = calleeOf(call);
  const local = callee?.type === 'identifier' ? callee : callee?.type === 'member_expression' ? memberObject(callee) : undefined;
  if (!callee || local?.type !== 'identifier' || !imported.has(local.text)) return undefined;
  const binding = resolveName(local.text, call);
  if (binding?.kind !== 'import') return undefined;
  const specifier = importSpecifierOf(binding.node);
  if (!specifier) return undefined;
  if (callee.type === 'identifier') {
    if (binding.node.type === 'import_specifier') {
      return { specifier, imported: binding.node.childForFieldName('name')!.text, label: `${callee.text}()` };
    }
    return binding.node.type === 'identifier' ? { specifier, imported: 'default', label: `${callee.text}()` } : undefined;
  }
  const method = propertyName(callee);
  return binding.node.type === 'namespace_import' && method ? { specifier, imported: method, label: `${callee.text}()` } : undefined;
}

export const asyncCallsCollector: Collector<AsyncCallFacts> = {
  id: ASYNC_CALLS_COLLECTOR,
  create({ source }) {
    const facts: AsyncCallFacts = { asyncFunctions: 0, asyncExports: [], droppedCalls: [] };
    const moduleAsync = new Map<string, SyntaxNode>();
    const exportedLocals: Array<[string, string]> = [];
    const imported = new Set<string>();
    const candidates: SyntaxNode[] = [];
    const mayImport = /\bimport\b/.test(source);
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
          const clause = node.namedChildren.find((child) => child.type === 'import_clause');
          for (const part of clause?.namedChildren ?? []) {
            if (part.type === 'identifier') imported.add(part.text);
            else if (part.type === 'namespace_import') part.namedChildren.forEach((id) => imported.add(id.text));
            else if (part.type === 'named_imports') {
              for (const specifier of part.namedChildren) {
                const name = (specifier.childForFieldName('alias') ?? specifier.childForFieldName('name'))?.text;
                if (name) imported.add(name);
              }
            }
          }
        },
        export_statement(node) {
          if (node.childForFieldName('source')) return;
          const value = node.childForFieldName('value');
          if (value?.type === 'identifier') exportedLocals.push([value.text, 'default']);
          const clause = node.namedChildren.find((child) => child.type === 'export_clause');
          for (const specifier of clause?.namedChildren ?? []) {
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
          if (imported.size === 0) return;
          const names = [...imported].filter((name) => /^[\w$]+$/.test(name));
          const worth = new RegExp(`(^|[^\\w$.])(${names.map((n) => n.replace(/\$/g, '\\$')).join('|')})\\s*[.(]`);
          for (const statement of candidates) {
            if (statement.hasError || !worth.test(source.slice(statement.startIndex, statement.endIndex))) continue;
            const expression = statement.firstNamedChild;
            for (const part of expression ? droppedParts(expression) : []) {
              if (part.type !== 'call_expression') continue;
              const callee = importedCallee(part, imported);
              if (!callee) continue;
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

