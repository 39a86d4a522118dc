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
const ROOT_DIR_STRING = /['"`]<rootDir>\/([^'"`\n*?{}]+)['"`]/g;
const COMMAND_STRING = /(['"`])([^'"`\n]{0,300}\s[^'"`\n]{0,300})\1/g;
const COMMAND_WORD = /^(?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[mc]?[jt]sx?$/;
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
  if (!codeFilesOnly) {
    // Jest's `<rootDir>/jest.setup.ts` (the config's directory unless `rootDir` says otherwise).
    for (const match of text.matchAll(ROOT_DIR_STRING)) out.add(`./${match[1]}`);
    // A command a config runs (`webServer: { command: 'node extra/reset.js && ...' }`).
    for (const match of text.matchAll(COMMAND_STRING)) {
      for (const word of match[2].split(/[\s;&|()=]+/)) if (COMMAND_WORD.test(word)) out.add(word.startsWith('.') ? word : `./${word}`);
    }
  }
  return [...out].filter((s) => !/[*?{}]/.test(s) && !s.includes('${'));
}

// Keys whose values name files a tool must NOT load (tsconfig `exclude`, eslint `ignorePatterns`, ...).
const EXCLUDING_KEY = /^(?:exclude|excludes|excluded|ignore|ignores|ignored|ignorePatterns|testPathIgnorePatterns|watchPathIgnorePatterns)$/i;

/**
 * Code files a JSON configuration names (`"main": "src/main.ts"`), leaving out what it excludes.
 * Comments and trailing commas (tsconfig, angular.json) are tolerated; unparsable text is scanned.
 */
export function jsonConfigReferences(text: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(stripJsonComments(text));
  } catch {
    return configReferences(text, true);
  }
  const out = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (CODE_FILE.test(value) && !/[*?{}]/.test(value) && !/^[a-z][a-z0-9+.-]*:/i.test(value))
        out.add(value.startsWith('.') ? value : `./${value.replace(/^\/+/, '')}`);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) if (!EXCLUDING_KEY.test(key)) walk(v);
    }
  };
  walk(data);
  return [...out];
}

/** Removes `//` and `/* *\/` comments outside strings, and trailing commas. */
function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
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
