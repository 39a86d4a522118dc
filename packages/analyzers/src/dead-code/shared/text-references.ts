// Module references in files the engine does not parse: configuration code (`vite.config.ts`,
// `.storybook/main.ts`, `.eslintrc.cjs` are classified as config), configuration data
// (angular.json, project.json), components of other languages (`.vue`, `.svelte`, `.astro`, `.mdx`)
// and HTML pages (`<script src>`).
// Their text is scanned, never re-parsed: configs are few and small, and what they load (setup
// files, plugins, entries) is written as import specifiers or relative path strings.

const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"`])([^'"`\n]+)\1/g;
const RELATIVE_STRING = /(['"`])(\.{1,2}\/[^'"`\n]+)\1/g;
const PATH_STRING = /(['"`])([\w@-][\w./@-]*\/[\w.-]+\.(?:[mc]?[jt]sx?))\1/g;
const CODE_FILE = /\.(?:[mc]?[jt]sx?)$/;
const SCRIPT_SRC = /<script\b[^>]*\bsrc\s*=\s*(['"])([^'"]+)\1/gi;

/**
 * Specifiers a configuration file imports or names as relative paths; globs are left out. In data
 * (JSON) only paths of code files count: `"main": "src/main.ts"` in angular.json is an entry,
 * `"rootDir": "./src"` in a tsconfig is not.
 */
export function configReferences(text: string, codeFilesOnly = false): string[] {
  const out = new Set<string>();
  if (!codeFilesOnly) for (const match of text.matchAll(IMPORT_SPECIFIER)) out.add(match[2]);
  for (const match of text.matchAll(RELATIVE_STRING)) if (!codeFilesOnly || CODE_FILE.test(match[2])) out.add(match[2]);
  // `setupFiles: ['test/setup.ts']`: a path with a directory and a code extension, relative to the config.
  for (const match of text.matchAll(PATH_STRING)) out.add(`./${match[2]}`);
  return [...out].filter((s) => !/[*?{}]/.test(s) && !s.includes('${'));
}

/** Local scripts an HTML page loads, relative to the page (Vite's `/src/main.ts` is too); URLs are left out. */
export function htmlScriptReferences(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(SCRIPT_SRC)) {
    const src = match[2].split(/[?#]/)[0];
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) continue;
    out.push(src.startsWith('.') ? src : `./${src.replace(/^\/+/, '')}`);
  }
  return out;
}
