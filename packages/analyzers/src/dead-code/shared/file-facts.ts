// The dead-code collector: per-file facts the repository rules need and the module facts lack.
// - which exports are also used inside their own file (then only the `export` keyword is dead);
// - modules the file loads without import syntax (`new Worker(new URL('./w.js', import.meta.url))`);
// - paths of code files and directories written as strings (`path.join(__dirname, 'fixtures/x.js')`,
//   jscodeshift's `defineTest(__dirname, 'transform.cjs')`, `migrations: './db/migrations'`).
// It subscribes to rare node types only; occurrences are found in the text and confirmed on the tree.
import type { Collector, NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';

export interface DeadCodeFileFacts {
  /** Exported names whose local binding is referenced somewhere else in the file. */
  usedInFile: string[];
  /** Specifiers of modules loaded by URL, worker or `resolve()` calls, relative to the file. */
  loads: string[];
  /**
   * Globs of modules loaded in bulk, relative to the file (`/` = the repository root):
   * `import.meta.glob('./pages/*.ts')`, `require.context('./dir')` (as `./dir/**`),
   * `import(\`./locales/${lang}.js\`)` (as `./locales/*.js`).
   */
  globs: string[];
  /**
   * Strings that may name a code file or a directory of them, as written (`fixtures/x.js`,
   * `./db/migrations`); import specifiers are left out. Where they lead is decided with the file
   * list (entry-requests.ts): a path string only counts when it names a file or directory that exists.
   */
  pathStrings?: string[];
  /** Templates naming one file of a folder (`` `cases/${name}.ts` `` → `./cases/*.ts`), relative to the file. */
  pathGlobs?: string[];
  /** JSDoc type imports, `[specifier, name]`: `@type {import("./operators").ConditionOperator}` uses `ConditionOperator`. */
  typeImports?: Array<[string, string]>;
}

export const FILE_FACTS_COLLECTOR_ID = 'file-facts';

const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200c\u200d]/u;
const REFERENCE_TYPES = new Set(['identifier', 'type_identifier', 'shorthand_property_identifier']);
const DECLARATION_TYPES = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_signature',
  'class_declaration',
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'variable_declarator',
  'internal_module',
  'module',
  'class',
  'function_expression',
]);
const NAMED_DECLARATIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_signature',
  'class_declaration',
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'internal_module',
  'module',
]);

interface ExportedBinding {
  exported: string;
  local: string;
  start: number;
  end: number;
}

export const fileFactsCollector: Collector<DeadCodeFileFacts> = {
  id: FILE_FACTS_COLLECTOR_ID,
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  create({ source }) {
    let root: SyntaxNode | undefined;
    const bindings: ExportedBinding[] = [];
    const loads: string[] = [];
    const visitor: NodeVisitor = {
      program: (node) => {
        root = node;
      },
      export_statement: (node) => {
        if (node.parent?.type === 'program') bindings.push(...exportedBindings(node));
      },
    };
    if (source.includes('import.meta') || source.includes('Worker')) visitor.new_expression = (node) => readLoad(node, loads);
    const globs: string[] = [];
    if (source.includes('.resolve(') || source.includes('import.meta.glob') || source.includes('require.context') || source.includes('import(`')) {
      visitor.call_expression = (node) => readCallLoad(node, loads, globs);
    }
    return {
      visitor,
      result: () => ({
        usedInFile: root ? usedInFile(root, source, bindings) : [],
        loads: [...new Set([...loads, ...referencePaths(source)])],
        globs: [...new Set(globs)],
        pathStrings: pathStrings(source),
        pathGlobs: templatePathGlobs(source),
        typeImports: jsdocTypeImports(source),
      }),
    };
  },
};

function exportedBindings(statement: SyntaxNode): ExportedBinding[] {
  const { startIndex: start, endIndex: end } = statement;
  const out: ExportedBinding[] = [];
  const isDefault = statement.children.some((c) => c.type === 'default');
  if (statement.childForFieldName('source')) return out;
  const declaration = statement.childForFieldName('declaration');
  if (declaration) {
    for (const name of declaredNames(declaration)) out.push({ exported: isDefault ? 'default' : name, local: name, start, end });
    return out;
  }
  const value = statement.childForFieldName('value');
  if (isDefault && value) {
    const local = value.type === 'identifier' ? value.text : value.childForFieldName('name')?.text;
    if (local) out.push({ exported: 'default', local, start, end });
    return out;
  }
  const clause = statement.namedChildren.find((c) => c.type === 'export_clause');
  for (const specifier of clause?.namedChildren ?? []) {
    if (specifier.type !== 'export_specifier') continue;
    const local = specifier.childForFieldName('name')?.text;
    const alias = specifier.childForFieldName('alias')?.text;
    if (local) out.push({ exported: alias ?? local, local, start, end });
  }
  return out;
}

function declaredNames(declaration: SyntaxNode): string[] {
  if (NAMED_DECLARATIONS.has(declaration.type)) {
    const name = declaration.childForFieldName('name')?.text;
    return name ? [name] : [];
  }
  if (declaration.type === 'lexical_declaration' || declaration.type === 'variable_declaration') {
    return declaration.namedChildren
      .filter((d) => d.type === 'variable_declarator' && d.childForFieldName('name')?.type === 'identifier')
      .map((d) => d.childForFieldName('name')!.text);
  }
  return [];
}

function usedInFile(root: SyntaxNode, source: string, bindings: ExportedBinding[]): string[] {
  const used = new Set<string>();
  if (bindings.length === 0) return [];
  // One pass over the text finds every whole-word occurrence of every exported name; a file with
  // hundreds of exports would otherwise be searched once per export.
  const occurrences = wordOccurrences(source, new Set(bindings.map((b) => b.local).filter(isWord)));
  const byName = new Map<string, ExportedBinding[]>();
  for (const b of bindings) {
    const group = byName.get(b.local);
    if (group) group.push(b);
    else byName.set(b.local, [b]);
  }
  for (const [name, group] of byName) {
    const positions = isWord(name) ? (occurrences.get(name) ?? []) : [...occurrencesOf(source, name)];
    if (group.length === 1) {
      if (!used.has(group[0]!.exported) && referencedOutside(root, source, group[0]!, positions)) used.add(group[0]!.exported);
      continue;
    }
    // A name exported by many statements (`export var x` repeated, generated files): checking every
    // occurrence per statement is quadratic (minutes for a few thousand lines). Confirm each
    // occurrence once; a statement's binding is used when a reference lies before or after it.
    const references = positions.filter((at) => isReference(root, source, name, at));
    const first = references[0];
    const last = references[references.length - 1];
    if (first === undefined || last === undefined) continue;
    for (const b of group) if (first < b.start || last >= b.end) used.add(b.exported);
  }
  return [...used];
}

/**
 * Per UTF-16 unit: 1 identifier character, 2 not, 0 not yet asked (non-ASCII units are tested once
 * each). One table read per character of the text, and no regular expression per non-ASCII unit.
 */
const identifierUnits = new Uint8Array(65536);
for (let code = 0; code < 128; code++) {
  identifierUnits[code] = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 ? 1 : 2;
}

function isIdentifierUnit(code: number): boolean {
  let known = identifierUnits[code];
  if (known === 0) identifierUnits[code] = known = IDENTIFIER_CHAR.test(String.fromCharCode(code)) ? 1 : 2;
  return known === 1;
}

function isWord(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) if (!isIdentifierUnit(name.charCodeAt(i))) return false;
  return true;
}

/** Start offsets of the maximal runs of identifier characters that spell one of `names`. */
function wordOccurrences(source: string, names: ReadonlySet<string>): Map<string, number[]> {
  const found = new Map<string, number[]>();
  // Words are hashed while they are scanned: only a word whose length and hash fit a name is
  // compared with it, and no word is copied out of the text.
  const lengths = new Uint8Array(256);
  const byHash = new Map<number, string[]>();
  let longest = 0;
  for (const name of names) {
    longest = Math.max(longest, name.length);
    if (name.length < 256) lengths[name.length] = 1;
    let hash = 0;
    for (let k = 0; k < name.length; k++) hash = (Math.imul(hash, 31) + name.charCodeAt(k)) | 0;
    const group = byHash.get(hash);
    if (group) group.push(name);
    else byHash.set(hash, [name]);
  }
  // The table is read in place (isIdentifierUnit only for units not classified yet): this loop reads
  // every character of the file, and the command's V8 setting inlines no calls.
  const units = identifierUnits;
  for (let i = 0; i < source.length;) {
    let code = source.charCodeAt(i);
    const unit = units[code];
    if (unit === 2 || (unit === 0 && !isIdentifierUnit(code))) {
      i++;
      continue;
    }
    let hash = code;
    let j = i + 1;
    for (; j < source.length; j++) {
      code = source.charCodeAt(j);
      const next = units[code];
      if (next === 2 || (next === 0 && !isIdentifierUnit(code))) break;
      hash = (Math.imul(hash, 31) + code) | 0;
    }
    const length = j - i;
    if (length <= longest && (length >= 256 || lengths[length] === 1)) {
      const candidates = byHash.get(hash);
      if (candidates) {
        for (const name of candidates) {
          if (name.length !== length || !source.startsWith(name, i)) continue;
          const list = found.get(name);
          if (list) list.push(i);
          else found.set(name, [i]);
          break;
        }
      }
    }
    i = j;
  }
  return found;
}

function* occurrencesOf(source: string, name: string): Generator<number> {
  for (let at = source.indexOf(name); at >= 0; at = source.indexOf(name, at + name.length)) yield at;
}

/** A reference to `local` outside the export statement. `positions` are the name's occurrences. */
function referencedOutside(root: SyntaxNode, source: string, binding: ExportedBinding, positions: Iterable<number>): boolean {
  const { local: name, start, end } = binding;
  for (const at of positions) {
    if (at >= start && at < end) continue;
    if (isReference(root, source, name, at)) return true;
  }
  return false;
}

/** The occurrence of `name` at `at` is a whole identifier that is neither a declaration's name nor a property. */
function isReference(root: SyntaxNode, source: string, name: string, at: number): boolean {
  const after = at + name.length;
  const before = at > 0 ? source[at - 1] : '';
  if (IDENTIFIER_CHAR.test(before) || (after < source.length && IDENTIFIER_CHAR.test(source[after]))) return false;
  if (before === '.' && source[at - 2] !== '.') return false;
  const node = root.descendantForIndex(at, after);
  if (!REFERENCE_TYPES.has(node.type) || node.text !== name) return false;
  const parent = node.parent;
  return !(parent && DECLARATION_TYPES.has(parent.type) && parent.childForFieldName('name')?.startIndex === node.startIndex);
}

/** `new URL('./x.js', import.meta.url)` and `new Worker('./x.js')` load a module by path. */
function readLoad(node: SyntaxNode, out: string[]): void {
  const ctor = node.childForFieldName('constructor')?.text;
  const args = node.childForFieldName('arguments')?.namedChildren ?? [];
  const first = stringValue(args[0]);
  if (first === undefined || !(first.startsWith('./') || first.startsWith('../'))) return;
  if (ctor === 'URL' && args[1]?.text === 'import.meta.url') out.push(first);
  else if (ctor === 'Worker' || ctor === 'SharedWorker') out.push(first);
}

/** `require.resolve('./x')`, `import.meta.resolve('./x')`, `import.meta.glob(...)`, `require.context(...)`, `import(\`./x/${y}\`)`. */
function readCallLoad(node: SyntaxNode, loads: string[], globs: string[]): void {
  const callee = node.childForFieldName('function');
  const first = node.childForFieldName('arguments')?.namedChildren[0];
  if (!callee || !first) return;
  const name = callee.text;
  if (name === 'require.resolve' || name === 'import.meta.resolve') {
    const path = stringValue(first);
    if (path !== undefined && isRelative(path)) loads.push(path);
  } else if (name === 'import.meta.glob' || name === 'import.meta.globEager') {
    const patterns = first.type === 'array' ? first.namedChildren.map(stringValue) : [stringValue(first)];
    for (const pattern of patterns) if (pattern !== undefined && !pattern.startsWith('!')) globs.push(pattern);
  } else if (name === 'require.context') {
    const dir = stringValue(first);
    if (dir !== undefined && isRelative(dir)) globs.push(`${dir.replace(/\/+$/, '')}/**`);
  } else if (callee.type === 'import' && first.type === 'template_string') {
    // A computed import loads one of the files its static parts allow.
    const text = first.text.slice(1, -1);
    const head = text.slice(0, text.indexOf('${'));
    const tail = text.slice(text.lastIndexOf('}') + 1);
    if (isRelative(head) && head.includes('/') && !/[*?]/.test(head + tail)) globs.push(`${head.slice(0, head.lastIndexOf('/') + 1)}**/*${tail}`);
  }
}

const CODE_PATH_STRING = /(['"`])((?:\.{1,2}\/)?[\w@.-][\w@./-]*\.[mc]?[jt]sx?|\.{1,2}\/[\w@.-][\w@./-]*)\1/g;
/** What comes right before an import specifier: `from`, `import`, `require(`, `import(`. */
const IMPORT_BEFORE = /(?:\bfrom|\bimport|\brequire|\bimport\s*\(|\brequire\s*\()\s*\(?\s*$/;
// `${name}.ts` or `./cases/${name}.js` in a template: a file of that directory picked at run time.
const TEMPLATE_PATH = /`((?:\.{1,2}\/)?(?:[\w@.-]+\/)*)\$\{[^}`]{1,80}\}([\w.-]*\.[mc]?[jt]sx?)`/g;

const JSDOC_TYPE_IMPORT = /\bimport\(\s*(['"])([^'"\n]+)\1\s*\)\.([A-Za-z_$][\w$]*)/g;

/** `import("./x").Name` in JSDoc (and type positions): a type use of `Name` of `./x`. */
function jsdocTypeImports(source: string): Array<[string, string]> {
  if (!source.includes('import(')) return [];
  const out = new Map<string, [string, string]>();
  for (const match of source.matchAll(JSDOC_TYPE_IMPORT)) out.set(`${match[2]}\0${match[3]}`, [match[2], match[3]]);
  return [...out.values()];
}

/** Path-like strings of the text that are not import specifiers (those are the graph's). */
function pathStrings(source: string): string[] {
  const out = new Set<string>();
  for (const match of source.matchAll(CODE_PATH_STRING)) {
    const value = match[2];
    if (value.includes('..') && !/^(?:\.\.\/)+[\w@]/.test(value) && !value.startsWith('./')) continue;
    if (IMPORT_BEFORE.test(source.slice(Math.max(0, match.index - 12), match.index))) continue;
    out.add(value);
  }
  return [...out];
}

/** Globs for template paths whose variable part is one file name (`${fixture}.ts` → `./*.ts`). */
function templatePathGlobs(source: string): string[] {
  if (!source.includes('${')) return [];
  const out: string[] = [];
  for (const match of source.matchAll(TEMPLATE_PATH)) {
    if (IMPORT_BEFORE.test(source.slice(Math.max(0, match.index - 12), match.index))) continue;
    const head = match[1];
    out.push(`${head.startsWith('.') ? head : `./${head}`}*${match[2]}`);
  }
  return out;
}

/** `/// <reference path="./x.ts" />` includes another file. */
function referencePaths(source: string): string[] {
  if (!source.includes('<reference')) return [];
  return [...source.matchAll(/^\/\/\/\s*<reference\s+path\s*=\s*["']([^"']+)["']/gm)].map((m) => (isRelative(m[1]) ? m[1] : `./${m[1]}`));
}

function isRelative(path: string): boolean {
  return path.startsWith('./') || path.startsWith('../');
}

function stringValue(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string') return node.text.slice(1, -1);
  if (node.type === 'template_string' && !node.namedChildren.some((c) => c.type === 'template_substitution')) return node.text.slice(1, -1);
  return undefined;
}
