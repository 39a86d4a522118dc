// The module-facts collector for the single walk: imports, exports and top-level symbols of a
// TS/JS file, the per-file input of the code graph.
import type { SyntaxNode, Tree } from 'tree-sitter';
import type { NodeVisitor } from '../contracts/analyzer.js';
import type { Language } from '../domain/types.js';
import { buildDispatcher, walkTree } from '../parsing/walk.js';
import { declaresRequire, readDeclaration } from './extract-declarations.js';
import { readCommonJsAssignment } from './extract-commonjs.js';
import { readExportStatement } from './extract-exports.js';
import { readImportedCall } from './extract-calls.js';
import { readDynamicImport, readImportStatement, readRequireCall } from './extract-imports.js';
import { ImportElision } from './import-elision.js';
import { ModuleFactsBuilder } from './module-facts-builder.js';
import type { ModuleFacts } from './types.js';

export interface ModuleFactsOptions {
  /**
   * The file's language. Imports of JavaScript files are never elided (`ImportRecord.elidable`);
   * without a language the file is read as TypeScript.
   */
  language?: Language;
  /**
   * The file's text, when the caller has it (pass it: it is faster). Calls and assignments are
   * the most frequent nodes the extractor would subscribe to; when the text cannot contain
   * `require` or `exports` those subscriptions are left out, which keeps ESM files off the slow
   * path. Without it the text is taken from the tree.
   */
  source?: string;
}

export function createModuleFactsVisitor(options: ModuleFactsOptions = {}): { visitor: NodeVisitor; result(): ModuleFacts } {
  const builder = new ModuleFactsBuilder();
  let facts: ModuleFacts | undefined;
  const visitor: NodeVisitor = {
    // Module-level syntax is read from the program's children: `import`/`export` statements
    // only occur there (those inside `declare module` blocks describe other modules).
    program: (node) => {
      builder.root = node;
      builder.partial = node.hasError;
      readTopLevel(node, builder);
    },
    import: (node) => readDynamicImport(node, builder),
  };
  const { source, language } = options;
  builder.source = source;
  if (language !== 'javascript' && language !== 'jsx') builder.elision = new ImportElision();
  const readCall = (node: SyntaxNode) => {
    if (builder.bindings.size === 0) return;
    const call = readImportedCall(node, builder.bindings);
    if (call) builder.calls.push(call);
  };
  // Calls of imported bindings need an `import` statement (or `import x = require()`).
  const callsImports = source === undefined || source.includes('import');
  if (callsImports) visitor.new_expression = readCall;
  if (source === undefined || source.includes('require')) {
    builder.watchRequire = true;
    visitor.call_expression = (node) => {
      readRequireCall(node, builder);
      readCall(node);
    };
  } else if (callsImports) visitor.call_expression = readCall;
  if (source === undefined || source.includes('exports')) {
    visitor.assignment_expression = (node) => readCommonJsAssignment(node, builder);
  }
  return {
    visitor,
    result() {
      facts ??= builder.finish();
      return facts;
    },
  };
}

// Top-level statements worth materialising; the rest (comments above all) are skipped on the cursor.
const DECLARATIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_signature',
  'class_declaration',
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'lexical_declaration',
  'variable_declaration',
  'ambient_declaration',
  'internal_module',
  'module',
]);

function readTopLevel(parent: SyntaxNode, builder: ModuleFactsBuilder): void {
  const cursor = parent.walk();
  if (!cursor.gotoFirstChild()) return;
  do {
    const type = cursor.nodeType;
    if (type === 'import_statement') readImportStatement(cursor, builder);
    else if (type === 'export_statement') readExportStatement(cursor, builder);
    else if (DECLARATIONS.has(type)) {
      const statement = cursor.currentNode;
      if (builder.watchRequire && declaresRequire(statement)) builder.requireShadowed = true;
      readDeclaration(statement, statement, false, builder);
    } else if (type === 'expression_statement') {
      // The grammar wraps a top-level `namespace X {}` in an expression statement.
      if (cursor.gotoFirstChild()) {
        if (cursor.nodeType === 'internal_module') readDeclaration(cursor.currentNode, cursor.currentNode, false, builder);
        cursor.gotoParent();
      }
    } else if (type === 'ERROR') {
      // Statements the parser could not place still hold recognisable imports and declarations.
      readTopLevel(cursor.currentNode, builder);
    }
  } while (cursor.gotoNextSibling());
}

/** Extracts the facts of a parsed tree in a walk of its own (tests, one-off use). */
export function extractModuleFacts(tree: Tree, options: ModuleFactsOptions = {}): ModuleFacts {
  const { visitor, result } = createModuleFactsVisitor(options);
  walkTree(tree, buildDispatcher([visitor]));
  return result();
}
