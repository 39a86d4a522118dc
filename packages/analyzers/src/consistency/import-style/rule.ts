// Detects the repository's import conventions (ESM or CommonJS, extensions on relative specifiers,
// default or named imports of local modules) from the module facts, and reports deviations.
import type { FileSummary, ImportRecord, RepositoryRuleContext } from '@codehealth/engine/kit';
import { conventionOptions, defineConventionRule, share, sourceSummaries, type ObservedPattern } from '../shared/convention-rule.js';
import { append, FileMemo } from '../shared/file-memo.js';
import type { Observation } from '../shared/tally.js';
import { enclosingFunctionName } from '../../shared/enclosing-function.js';
import { onlyBinding, packageOf, packageRoots, resolveLocal } from './choices.js';

const options = conventionOptions.prefault({});

// `.cjs`/`.mjs` (and TypeScript's `.cts`/`.mts`) choose their module system by extension, not by style.
const FIXED_MODULE_SYSTEM = /\.[cm][jt]s$/;
const JS_EXTENSION = /\.(?:[cm]?js|jsx)$/;
const TS_EXTENSION = /\.(?:[cm]?ts|tsx)$/;
// Non-code imports (`./data.json`, `./styles.css`) always need their extension.
const OTHER_EXTENSION =
  /\.(?:json|css|scss|sass|less|svg|png|jpe?g|gif|webp|avif|ico|html?|md|mdx|txt|wasm|node|graphql|gql|ya?ml|vue|svelte|astro|woff2?|ttf)$/i;
const ESM_KINDS = new Set<ImportRecord['kind']>(['static', 'type', 'side-effect', 're-export', 're-export-all']);

const isRelative = (specifier: string): boolean => specifier.startsWith('./') || specifier.startsWith('../');

function extensionStyle(specifier: string): string | undefined {
  // `./logo.svg?react`, `./worker.js?url`: bundler loaders, not a resolution style.
  if (/[?#]/.test(specifier)) return undefined;
  const last = specifier.slice(specifier.lastIndexOf('/') + 1);
  if (last === '' || last === '.' || last === '..') return undefined;
  if (JS_EXTENSION.test(last)) return '.js';
  if (TS_EXTENSION.test(last)) return '.ts';
  if (OTHER_EXTENSION.test(last)) return undefined;
  return 'none';
}

function bindingStyle(record: ImportRecord): string | undefined {
  if (record.kind !== 'static' || record.typeOnly || record.names.length === 0) return undefined;
  // JSON, styles and assets have only a default export to import.
  if (OTHER_EXTENSION.test(record.specifier) || /[?#]/.test(record.specifier)) return undefined;
  // `import Tokenizer, { CharCodes } from './tokenizer'` takes both bindings: the module's design, neither style.
  if (record.names.includes('default')) return record.names.length > 1 ? undefined : 'default';
  // A namespace import is a third choice, not a deviation from either.
  return record.names.includes('*') ? undefined : 'named';
}

/** `createRequire` makes `require` a deliberate escape hatch in an ES module, not a style. */
function usesCreateRequire(summary: FileSummary): boolean {
  return summary.module.imports.some((i) => (i.specifier === 'module' || i.specifier === 'node:module') && i.names.includes('createRequire'));
}

/**
 * A file's module system: ESM when it has import or export statements, CommonJS when it calls
 * `require` or assigns `module.exports`, mixed when both. Anchored where the minority style shows.
 */
function moduleSystemOf(summary: FileSummary): Observation | undefined {
  const { imports, exports, commonJs } = summary.module;
  const esm = imports.find((i) => ESM_KINDS.has(i.kind));
  // A require() inside a function of an ES module loads lazily (a Node-only path, an optional
  // dependency): an escape hatch like createRequire, not a module system.
  const lazyOnly = esm !== undefined && imports.every((i) => i.kind !== 'require' || enclosingFunctionName(summary.functions, i.line) !== undefined);
  const requires = usesCreateRequire(summary) || lazyOnly ? undefined : imports.find((i) => i.kind === 'require');
  const isEsm = esm !== undefined || (exports.length > 0 && !commonJs);
  const isCjs = requires !== undefined || commonJs;
  if (!isEsm && !isCjs) return undefined;
  const value = isEsm && isCjs ? 'mixed' : isEsm ? 'ESM' : 'CommonJS';
  const first = value === 'ESM' ? (esm ?? exports[0]) : requires;
  const line = first?.line ?? 1;
  const subject = first && 'specifier' in first ? first.specifier : '';
  return { path: summary.path, line, subject, values: [value] };
}

/** One file's observations of each pattern, in import order. */
interface ObservedImports {
  system: Observation | undefined;
  extension: Observation[];
  binding: Observation[];
}

/** Keyed by the file's module facts; also depends on its path and its functions (the symbols). */
const observedImports = new FileMemo<FileSummary['module'], ObservedImports>();

function observeImports(summary: FileSummary): ObservedImports {
  const observed: ObservedImports = { system: FIXED_MODULE_SYSTEM.test(summary.path) ? undefined : moduleSystemOf(summary), extension: [], binding: [] };
  // `import { a, type B } from './x'` gives a value and a type record for one statement.
  const seen = new Set<string>();
  // Imports sit above the first function (no function encloses them) but for dynamic ones.
  let firstFunctionLine = Number.POSITIVE_INFINITY;
  for (const fn of summary.functions) if (fn.lineStart < firstFunctionLine) firstFunctionLine = fn.lineStart;
  for (const record of summary.module.imports) {
    if (!isRelative(record.specifier)) continue;
    const symbol = record.line < firstFunctionLine ? undefined : enclosingFunctionName(summary.functions, record.line);
    const at = { path: summary.path, line: record.line, subject: record.specifier, ...(symbol ? { symbol } : {}) };
    const style = bindingStyle(record);
    if (style) observed.binding.push({ ...at, values: [style] });
    const key = `${record.line}\0${record.specifier}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // CommonJS resolution fills in extensions itself; only ESM-style imports choose.
    const ext = record.kind === 'require' ? undefined : extensionStyle(record.specifier);
    if (ext) observed.extension.push({ ...at, values: [ext] });
  }
  return observed;
}

const TYPESCRIPT_FILE = /\.[cm]?tsx?$/;

/** `detail` of an observation the file could not write another way: counted, never reported. */
const UNCHOSEN = 'unchosen';

/**
 * Marks (on copies: the per-file observations are memoised) what the importing file did not
 * choose: a CommonJS `.js` file in a package without `"type": "module"` (Node runs it as CommonJS),
 * a TypeScript file written with import/export (TypeScript's own syntax: its `module` setting, not
 * the file, decides whether the output is CommonJS or ESM),
 * an import without extension in a package whose own imports mostly have none (its build resolves
 * them), and a default or named import of a module that offers only that binding (a default import
 * of a module without a default export stays reported: it is wrong, not forced).
 */
async function markUnchosen(context: RepositoryRuleContext<unknown>, system: Observation[], extension: Observation[], binding: Observation[]): Promise<void> {
  const roots = await packageRoots(context);
  for (let i = 0; i < system.length; i++) {
    const o = system[i];
    if (o.values[0] === 'CommonJS' && /\.jsx?$/.test(o.path) && !packageOf(o.path, roots)?.esm) system[i] = { ...o, detail: UNCHOSEN };
    else if (o.values[0] === 'ESM' && TYPESCRIPT_FILE.test(o.path)) system[i] = { ...o, detail: UNCHOSEN };
  }
  const perPackage = new Map<string, { none: number; written: number }>();
  const dirOf = (path: string): string => packageOf(path, roots)?.dir ?? '';
  for (const o of extension) {
    const counts = perPackage.get(dirOf(o.path)) ?? { none: 0, written: 0 };
    if (o.values[0] === 'none') counts.none++;
    else counts.written++;
    perPackage.set(dirOf(o.path), counts);
  }
  for (let i = 0; i < extension.length; i++) {
    const o = extension[i];
    const counts = perPackage.get(dirOf(o.path))!;
    if (o.values[0] === 'none' && counts.none >= counts.written) extension[i] = { ...o, detail: UNCHOSEN };
  }
  const byPath = new Map(context.summaries.map((s) => [s.path, s]));
  for (let i = 0; i < binding.length; i++) {
    const o = binding[i];
    const target = resolveLocal(o.path, o.subject, byPath);
    if (target && onlyBinding(target) === o.values[0]) binding[i] = { ...o, detail: UNCHOSEN };
  }
}

export const importStyle = defineConventionRule({
  id: 'import-style',
  description: 'Imports that break the repository’s dominant module system, relative-import extension style or local import binding style',
  confidence: 85,
  options,
  docs: {
    whyItMatters:
      'Mixed import styles are more than cosmetics: CommonJS and ES modules load differently, a relative import without the ' +
      'extension the rest of the code uses may not resolve under Node’s ESM rules or another bundler setting, and mixing default ' +
      'and named exports makes every import a lookup.',
    suggestedAction: 'Write the import the way the rest of the repository does.',
  },
  async observe(context) {
    const system: Observation[] = [];
    const extension: Observation[] = [];
    const binding: Observation[] = [];
    for (const summary of sourceSummaries(context.summaries)) {
      const observed = observedImports.get(summary.module, [summary.path, summary.functions], () => observeImports(summary));
      if (observed.system) system.push(observed.system);
      append(extension, observed.extension);
      append(binding, observed.binding);
    }
    await markUnchosen(context, system, extension, binding);
    return [
      { name: 'module-system', observations: system },
      { name: 'import-extension', observations: extension },
      { name: 'local-import-binding', observations: binding },
    ] satisfies ObservedPattern[];
  },
  describe(deviation, pattern) {
    if (deviation.detail === UNCHOSEN) return undefined;
    // An explicit extension resolves everywhere (Node's ESM and Deno require one): only a missing
    // one, where the repository writes them, may fail to resolve.
    if (pattern.name === 'import-extension' && deviation.values[0] !== 'none') return undefined;
    const file = deviation.path.slice(deviation.path.lastIndexOf('/') + 1);
    const spec = deviation.subject;
    const value = deviation.values[0];
    const where = `${deviation.path}:${deviation.line}`;
    if (pattern.name === 'module-system') {
      const how: Record<string, string> = {
        ESM: 'is an ES module',
        CommonJS: 'is a CommonJS module',
        mixed: 'mixes ES module syntax with CommonJS require()/module.exports',
      };
      const shown = spec ? (value === 'ESM' ? ` (import from '${spec}' at line ${deviation.line})` : ` (require('${spec}') at line ${deviation.line})`) : '';
      return {
        title: `${file} ${value === 'mixed' ? 'mixes ESM and CommonJS' : `is ${value}`}; the repository uses ${pattern.dominantValue}`,
        description: `${deviation.path} ${how[value]}${shown}, while ${share(pattern)} of the source files in this repository are ${pattern.dominantValue}.`,
        suggestedAction:
          pattern.dominantValue === 'ESM'
            ? 'Replace require() with import statements (a dynamic import() where loading must stay lazy) and module.exports with export.'
            : 'Write the file with require() and module.exports like the rest of the package, or convert the package to ES modules as a whole.',
      };
    }
    if (pattern.name === 'import-extension') {
      const describeValue = (v: string) => (v === 'none' ? 'no extension' : `a ${v} extension`);
      return {
        title: `Relative import '${spec}' in ${file} has ${describeValue(value)}; the repository uses ${describeValue(pattern.dominantValue)}`,
        description: `${where} imports '${spec}' with ${describeValue(value)}, while ${share(pattern)} of the relative imports in this repository are written with ${describeValue(pattern.dominantValue)}.`,
        suggestedAction:
          pattern.dominantValue === 'none'
            ? `Drop the extension from '${spec}'.`
            : `Write the specifier with the ${pattern.dominantValue} extension (and '/index${pattern.dominantValue}' for a directory), as Node's ESM resolution requires.`,
        confidence: 90,
      };
    }
    return {
      title: `${value === 'default' ? 'Default' : 'Named'} import of '${spec}' in ${file}; local modules are imported ${pattern.dominantValue === 'default' ? 'by default' : 'by name'}`,
      description: `${where} uses a ${value} import of the local module '${spec}', while ${share(pattern)} of the imports of local modules in this repository are ${pattern.dominantValue} imports.`,
      suggestedAction:
        pattern.dominantValue === 'named'
          ? `Export the value by name from '${spec}' and import it with braces; named exports keep one name across the code base.`
          : `Import the module's default export, as the rest of the code base does.`,
      confidence: 70,
    };
  },
});
