// Naming styles of identifiers and file names: which styles a name fits, and the name in another style.

export const NAMING_STYLES = ['camelCase', 'PascalCase', 'snake_case', 'UPPER_SNAKE', 'kebab-case', 'other'] as const;
export type NamingStyle = (typeof NAMING_STYLES)[number];

// Decoration that says something other than the style: `_private`, `#field`, `$element`, `source$`, `value_`.
const DECORATION = /^[_$#]+|[_$]+$/g;

const SINGLE_LOWER = /^[a-z][a-z0-9]*$/;
const SINGLE_UPPER = /^[A-Z][A-Z0-9]*$/;
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
const PASCAL = /^[A-Z][a-zA-Z0-9]*$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;

/**
 * The styles a name fits, most specific first; empty when it has no letters to judge by.
 *
 * One lowercase word (`parse`) fits camelCase, snake_case and kebab-case alike, and one all-caps
 * word (`URL`, `MAX`) fits UPPER_SNAKE and PascalCase (an acronym), so neither can deviate from
 * those; a single letter fits every style. Acronyms inside a name do not change its style: `parseURL` is camelCase and
 * `XMLHttpRequest` PascalCase, as in typescript-eslint's naming-convention.
 */
export function namingStylesOf(name: string): NamingStyle[] {
  const core = name.replace(DECORATION, '');
  if (!/[A-Za-z]/.test(core)) return [];
  // One letter (`_`-prefixed `_F`, a type parameter) says nothing about style.
  if (core.length === 1) return ['camelCase', 'PascalCase', 'snake_case', 'UPPER_SNAKE', 'kebab-case'];
  if (SINGLE_LOWER.test(core)) return ['camelCase', 'snake_case', 'kebab-case'];
  if (SINGLE_UPPER.test(core)) return ['UPPER_SNAKE', 'PascalCase'];
  if (CAMEL.test(core)) return ['camelCase'];
  if (PASCAL.test(core)) return ['PascalCase'];
  if (SNAKE.test(core)) return ['snake_case'];
  if (UPPER_SNAKE.test(core)) return ['UPPER_SNAKE'];
  if (KEBAB.test(core)) return ['kebab-case'];
  return ['other'];
}

/** `parseURL` → parse, URL; `HTTP_STATUS` → HTTP, STATUS; `fooBar2` → foo, Bar2. */
function wordsOf(core: string): string[] {
  return core.split(/[-_\s]+/).flatMap((part) => part.match(/[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z][a-z0-9]*|[0-9]+/g) ?? []);
}

const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** The name rewritten in `style`, keeping its decoration (`_fooBar` → `_foo_bar`); undefined for `other`. */
export function renameTo(name: string, style: NamingStyle): string | undefined {
  const prefix = /^[_$#]*/.exec(name)![0];
  const suffix = /[_$]*$/.exec(name.slice(prefix.length))![0];
  const words = wordsOf(name.slice(prefix.length, name.length - suffix.length));
  if (words.length === 0) return undefined;
  let core: string;
  switch (style) {
    case 'camelCase':
      core = words[0].toLowerCase() + words.slice(1).map(capitalise).join('');
      break;
    case 'PascalCase':
      core = words.map(capitalise).join('');
      break;
    case 'snake_case':
      core = words.map((w) => w.toLowerCase()).join('_');
      break;
    case 'UPPER_SNAKE':
      core = words.map((w) => w.toUpperCase()).join('_');
      break;
    case 'kebab-case':
      core = words.map((w) => w.toLowerCase()).join('-');
      break;
    default:
      return undefined;
  }
  return prefix + core + suffix;
}

/** How titles and descriptions name a style: `other` is a mix of styles, not a style. */
export function styleName(style: string): string {
  return style === 'other' ? 'mixed-style' : style;
}
