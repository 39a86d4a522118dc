// Language detection from a file's name. The extension decides; a few extension-less names that
// always hold one language are recognised by name.
import type { Language } from '../domain/types.js';

const BY_EXTENSION: ReadonlyMap<string, Language> = new Map<string, Language>([
  ['ts', 'typescript'],
  ['mts', 'typescript'],
  ['cts', 'typescript'],
  ['tsx', 'tsx'],
  ['js', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['jsx', 'jsx'],
  ['json', 'json'],
  ['jsonc', 'json'],
  ['json5', 'json'],
  ['md', 'markdown'],
  ['markdown', 'markdown'],
  ['mdx', 'markdown'],
  ['yaml', 'yaml'],
  ['yml', 'yaml'],
  ['css', 'css'],
  ['scss', 'css'],
  ['sass', 'css'],
  ['less', 'css'],
  ['html', 'html'],
  ['htm', 'html'],
]);

// JSON in all but name: tools read these files as JSON (comments allowed, as in tsconfig).
const BY_NAME: ReadonlyMap<string, Language> = new Map<string, Language>([
  ['.babelrc', 'json'],
  ['.eslintrc', 'json'],
  ['.prettierrc', 'json'],
  ['.swcrc', 'json'],
]);

/** The last path segment. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Lower-cased extension without the dot; '' for none. A leading dot (`.env`) is not an extension. */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function detectLanguage(path: string): Language {
  const name = baseName(path).toLowerCase();
  return BY_NAME.get(name) ?? BY_EXTENSION.get(extensionOf(name)) ?? 'other';
}
