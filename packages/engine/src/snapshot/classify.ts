// Decides how each file is treated (`FileKind`). The first rule that matches wins, in this order:
//
//  1. vendored       a directory segment named node_modules, vendor, _vendor, third_party, third-party,
//                    thirdparty or bower_components.
//  2. generated      a directory segment named dist, build, out, coverage, generated, __generated__,
//                    .next, .nuxt, .svelte-kit, .output, .turbo or .cache; a name like *.min.js,
//                    *.bundle.js (also .mjs/.cjs, and *.min.css), *.d.ts (.d.mts, .d.cts),
//                    *.generated.*; a lock file (package-lock.json, npm-shrinkwrap.json, yarn.lock,
//                    pnpm-lock.yaml, bun.lock, bun.lockb); a config `generated` glob; an
//                    `@generated`, `auto-generated`, `DO NOT EDIT` or "file generated from|by …" marker in the first 5 lines;
//                    or, for JavaScript, minified text (a line over 5,000 characters, or lines of
//                    more than 500 characters on average). Content rules need the head of the file.
//  3. config         package.json, tsconfig*.json, jsconfig*.json, *.config.{js,ts,mjs,cjs,mts,cts},
//                    dotfiles (.eslintrc*, .gitignore, .env, ...) and build files (Dockerfile, Makefile).
//  4. documentation  Markdown, reStructuredText, AsciiDoc, plain text, and README/LICENSE/CHANGELOG-like names.
//  5. asset          images, fonts, audio, video, archives, PDFs, WebAssembly and other binaries.
//  6. test           *.test.*, *.spec.*, *.e2e.*, *.e2e-spec.*, tsd's *.test-d.*, TSTyche's *.tst.*; a code file named test.*, tests.* or
//                    spec.* whose head imports a test framework or opens a suite (date-fns' `src/add/test.ts`);
//                    a directory segment named test, tests,
//                    __tests__, __mocks__, __snapshots__, fixtures, __fixtures__, __testfixtures__ (jscodeshift),
//                    e2e, cypress or test-d (tsd);
//                    a config `tests` glob. Fixtures hold deliberately odd code for tests to read:
//                    analysing them as source would report their planted problems.
//  7. config         anything under a dot directory (.github, .husky, .storybook, ...) and data
//                    formats (JSON, YAML, TOML, INI, XML).
//  8. source         code: the TS/JS family, CSS, HTML and other programming languages.
//  9. asset          whatever is left (CSV, fixtures of unknown formats, ...): it is not code.
//
// Rules 3-5 come before tests so that a tsconfig.json or a logo.png in a test folder keeps its
// nature; a source file in a test folder is test code. Globs from the configuration are picomatch
// globs on the repository-relative path; a glob without a slash matches the file name at any depth.
// They come from the repository, so they are run in linear time (patterns/glob.ts).
import type { FileKind } from '../domain/types.js';
import { compileGlob, GlobSyntaxError } from '../patterns/glob.js';
import { detectLanguage, extensionOf } from './languages.js';

export interface ClassifyOptions {
  /** Extra globs of test files (config `tests`). */
  tests?: readonly string[];
  /** Extra globs of generated files (config `generated`). */
  generated?: readonly string[];
}

/** `head` is the beginning of the file (a few KiB) when content rules should apply. */
export type Classifier = (path: string, head?: string) => FileKind;

const VENDORED_DIRS = new Set(['node_modules', 'vendor', '_vendor', 'third_party', 'third-party', 'thirdparty', 'bower_components']);
const GENERATED_DIRS = new Set([
  'dist',
  'build',
  'out',
  'coverage',
  'generated',
  '__generated__',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.output',
  '.turbo',
  '.cache',
]);
export const TEST_DIRS: ReadonlySet<string> = new Set([
  'test',
  'tests',
  '__tests__',
  '__mocks__',
  '__snapshots__',
  'fixtures',
  '__fixtures__',
  '__testfixtures__',
  'e2e',
  'cypress',
  'test-d',
]);
const LOCK_FILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb']);
const GENERATED_NAME = /\.(min|bundle)\.[mc]?js$|\.min\.css$|\.d\.[mc]?ts$|\.generated\.[^.]+$/i;
const TEST_NAME = /\.(test|spec|e2e|e2e-spec|test-d|tst)\.[^.]+$/i;
/** A test runner's setup file (`jest.setup.ts`, `vitest.setup.mjs`, `setupTests.js`). */
const TEST_SETUP_NAME = /^(?:(?:jest|vitest|test|tests)[.-]setup|setup-?tests?)\.[mc]?[jt]sx?$/i;
/** A folder of one kind of tests: `ecosystem-tests`, `integration_tests`, `type-tests`, `tests-e2e`. */
// Kinds named, not any word: an app's `ab-test/` or `split-test/` folder is a feature.
const KIND_OF_TESTS_DIR =
  /^(?:(?:unit|integration|e2e|ecosystem|type|types|dts|api|smoke|regression|acceptance|functional|browser|node|component|visual|contract|interop|compat)[-_])tests?$|^tests?[-_](?:e2e|unit|integration|types?|dts|node|browser|utils|helpers|support|setup)$/i;
/** A code file named just `test.ts` or `spec.js` (date-fns keeps `src/add/test.ts` beside `src/add/index.ts`). */
const BARE_TEST_NAME = /^(?:test|tests|spec)\.[mc]?[jt]sx?$/i;
/** A test framework imported, or a suite opened at the start of a line: what makes a bare `test.ts` a test. */
const TEST_FRAMEWORK =
  /(?:from|require\(|import)\s*['"](?:vitest|@jest\/globals|node:test|bun:test|mocha|ava|tap|tape|uvu|@playwright\/test|chai|node:assert(?:\/strict)?|assert(?:\/strict)?)['"]|^(?:describe|suite|test|it)\s*\(/m;
const CONFIG_NAME = /^(package\.json|[tj]sconfig(\..+)?\.json|.+\.config\.[mc]?[jt]s)$/i;
const BUILD_FILES = new Set(['dockerfile', 'makefile', 'procfile', 'jenkinsfile', 'vagrantfile', 'gemfile', 'brewfile', 'codeowners']);
const DOC_EXTENSIONS = new Set(['md', 'markdown', 'mdx', 'rst', 'adoc', 'asciidoc', 'txt']);
// README, LICENSE-MIT, CHANGELOG.old; but not security.ts, which is code.
const DOC_NAME = /^(readme|licen[cs]e|changelog|contributing|authors|notice|copying|history|security)([-_.][^.]*)?$/i;
const ASSET_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'bmp',
  'ico',
  'svg',
  'webp',
  'avif',
  'tif',
  'tiff',
  'psd',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'mp3',
  'wav',
  'ogg',
  'flac',
  'mp4',
  'webm',
  'mov',
  'avi',
  'pdf',
  'zip',
  'gz',
  'tgz',
  'tar',
  'bz2',
  'xz',
  '7z',
  'rar',
  'jar',
  'wasm',
  'exe',
  'dll',
  'so',
  'dylib',
  'bin',
  'dat',
  'db',
  'sqlite',
]);
const DATA_EXTENSIONS = new Set(['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'properties', 'xml', 'env']);
const OTHER_CODE_EXTENSIONS = new Set([
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'kts',
  'scala',
  'swift',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'fs',
  'php',
  'pl',
  'lua',
  'r',
  'dart',
  'ex',
  'exs',
  'erl',
  'clj',
  'hs',
  'ml',
  'sh',
  'bash',
  'zsh',
  'fish',
  'ps1',
  'sql',
  'vue',
  'svelte',
  'astro',
  'graphql',
  'gql',
  'proto',
  'sol',
  'zig',
  'elm',
]);
const CODE_LANGUAGES = new Set(['typescript', 'tsx', 'javascript', 'jsx', 'css', 'html']);

const MARKER_LINES = 5;
// Upper case only for DO NOT EDIT: "do not edit" in prose is a plea, not a generator's stamp.
// "File generated from our OpenAPI spec by …", "This file was automatically generated by …": a generator's
// stamp names what it generated from or with; "generated" alone in prose does not.
const GENERATED_MARKER =
  /@generated|DO NOT EDIT|[Aa]uto-?[Gg]enerated|AUTO-?GENERATED|\b(?:[Ff]ile|[Cc]ode|[Tt]his (?:file|module)) (?:was |is )?(?:automatically |auto-?)?generated (?:from|by|with|using)\b/;
const MINIFIED_LINE = 5_000;
const MINIFIED_AVERAGE = 500;

/** True when one of the first 5 lines says the file is generated. */
export function hasGeneratedMarker(head: string): boolean {
  let start = 0;
  for (let line = 0; line < MARKER_LINES && start <= head.length; line++) {
    const end = head.indexOf('\n', start);
    const text = head.slice(start, end === -1 ? head.length : end);
    if (GENERATED_MARKER.test(text)) return true;
    if (end === -1) break;
    start = end + 1;
  }
  return false;
}

/**
 * Minified or bundled code. When only the head of a large file is given, the head is measured:
 * minifiers put their long lines at the very start, so the head is a faithful sample.
 */
export function looksMinified(text: string): boolean {
  if (text.length === 0) return false;
  let lines = 0;
  let characters = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const length = (end === -1 ? text.length : end) - start;
    if (length > MINIFIED_LINE) return true;
    lines++;
    characters += length;
    if (end === -1 || end === text.length - 1) break;
    start = end + 1;
  }
  return characters / lines > MINIFIED_AVERAGE;
}

/** picomatch options of the config's `tests` and `generated` globs. */
export const CLASSIFY_GLOB_OPTIONS = { dot: true } as const;

/** A glob picomatch cannot compile matches nothing, as picomatch's own matcher did. */
function configGlob(glob: string): (path: string) => boolean {
  try {
    return compileGlob(glob, CLASSIFY_GLOB_OPTIONS);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return () => false;
    throw error;
  }
}

/** Config globs as one predicate on a repository-relative path (also the config's `roles` globs). */
export function configGlobMatcher(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => false;
  // picomatch's `basename` option would apply to every glob, so the two kinds are compiled apart.
  const byName = globs.filter((g) => !g.includes('/')).map(configGlob);
  const byPath = globs.filter((g) => g.includes('/')).map(configGlob);
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return byPath.some((match) => match(path)) || byName.some((match) => match(name));
  };
}

function isKnownExtension(ext: string): boolean {
  return ASSET_EXTENSIONS.has(ext) || DATA_EXTENSIONS.has(ext) || OTHER_CODE_EXTENSIONS.has(ext) || detectLanguage(`x.${ext}`) !== 'other';
}

export function createClassifier(options: ClassifyOptions = {}): Classifier {
  const extraTests = configGlobMatcher(options.tests);
  const extraGenerated = configGlobMatcher(options.generated);

  return (path, head) => {
    const segments = path.split('/');
    const name = segments[segments.length - 1];
    const dirs = segments.slice(0, -1);
    const ext = extensionOf(name);
    const lowerName = name.toLowerCase();

    if (dirs.some((d) => VENDORED_DIRS.has(d))) return 'vendored';
    if (
      dirs.some((d) => GENERATED_DIRS.has(d)) ||
      GENERATED_NAME.test(name) ||
      LOCK_FILES.has(lowerName) ||
      extraGenerated(path) ||
      (head !== undefined && isGeneratedContent(path, head))
    ) {
      return 'generated';
    }
    if (CONFIG_NAME.test(name) || name.startsWith('.') || BUILD_FILES.has(lowerName)) return 'config';
    if (DOC_EXTENSIONS.has(ext) || (DOC_NAME.test(name) && !isKnownExtension(ext))) return 'documentation';
    if (ASSET_EXTENSIONS.has(ext)) return 'asset';
    if (TEST_NAME.test(name) || TEST_SETUP_NAME.test(name) || dirs.some((d) => TEST_DIRS.has(d) || KIND_OF_TESTS_DIR.test(d)) || extraTests(path))
      return 'test';
    // A module of a test library may be called test.ts too: the name counts only with a test in its head.
    if (BARE_TEST_NAME.test(name) && head !== undefined && TEST_FRAMEWORK.test(head)) return 'test';
    if (dirs.some((d) => d.startsWith('.')) || DATA_EXTENSIONS.has(ext)) return 'config';
    if (CODE_LANGUAGES.has(detectLanguage(name)) || OTHER_CODE_EXTENSIONS.has(ext)) return 'source';
    return 'asset';
  };
}

/**
 * A configuration file of a tool (tsconfig, eslint, a bundler, dotfiles, Dockerfile, anything in a
 * dot directory): the `config` kind without the package manifest and plain data files.
 */
export function isToolConfig(path: string): boolean {
  const segments = path.split('/');
  const name = segments[segments.length - 1];
  if (name === 'package.json') return false;
  return CONFIG_NAME.test(name) || name.startsWith('.') || BUILD_FILES.has(name.toLowerCase()) || segments.slice(0, -1).some((d) => d.startsWith('.'));
}

function isGeneratedContent(path: string, head: string): boolean {
  if (hasGeneratedMarker(head)) return true;
  return detectLanguage(path) === 'javascript' && looksMinified(head);
}

/** One-off classification; build a classifier once with `createClassifier` for many files. */
export function classifyFile(path: string, options?: ClassifyOptions, head?: string): FileKind {
  return createClassifier(options)(path, head);
}
