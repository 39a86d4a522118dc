// Globs matched in linear time. picomatch still reads the glob (so `*`, `**`, `?`, `[...]`,
// `{a,b}`, extglobs, `!` negation and its options mean exactly what they meant), but the regular
// expression it writes is only compiled, never run: the linear-time matcher of safe-regexp.ts runs
// it. picomatch's own regexes backtrack catastrophically (`*?*?*?*?*?*?*?Z` against 30 characters
// took seconds); here a test costs at most O(pattern × subject).
import picomatch from 'picomatch';
import { compileSafeRegExp, UnsupportedPatternError, type SafeRegExp } from './safe-regexp.js';

/** The picomatch options our callers use; the rest keep picomatch's defaults. */
export interface GlobOptions {
  /** `*` also crosses `/` (picomatch's bash flavour). */
  bash?: boolean;
  /** Case-insensitive. */
  nocase?: boolean;
  /** Wildcards also match names that start with a dot. */
  dot?: boolean;
  /** `@(...)`, `!(...)` and the other extglobs are literal text. */
  noextglob?: boolean;
}

/** A glob as a predicate; `steps` counts the matcher's work so far (states visited, characters read). */
export type GlobMatcher = ((input: string) => boolean) & { readonly steps: number };

/** A glob whose regular expression cannot be built (picomatch's or JavaScript's syntax error). */
export class GlobSyntaxError extends Error {
  override name = 'GlobSyntaxError';
}

const hasLineTerminator = (text: string) => /[\n\r\u2028\u2029]/.test(text);

interface CompiledGlob {
  regex: SafeRegExp;
  negated: boolean;
}

/** picomatch's regex for `pattern`, with its top-level negation taken apart (a plain `!`, cheaper than its lookahead). */
function compile(pattern: string, options: GlobOptions): CompiledGlob {
  let regex: RegExp & { state?: { negated?: boolean } };
  try {
    regex = picomatch.makeRe(pattern, { ...options, debug: true }, false, true);
  } catch (error) {
    throw new GlobSyntaxError((error as Error).message);
  }
  const negated = regex.state?.negated === true;
  let source = regex.source;
  if (negated) {
    // picomatch wraps a negated glob as `^(?!<regex>).*$`.
    const head = '^(?!';
    const tail = ').*$';
    if (!source.startsWith(head) || !source.endsWith(tail)) throw new UnsupportedPatternError(`an unexpected negated form ${source}`);
    source = source.slice(head.length, -tail.length);
  }
  return { regex: compileSafeRegExp(source, regex.flags), negated };
}

/**
 * A predicate equivalent to `picomatch(patterns, options)` (any pattern matching), running in
 * linear time. Throws GlobSyntaxError for a pattern picomatch cannot compile and
 * UnsupportedPatternError for one whose regex needs backtracking (a backreference such as
 * `{a,b}\1`, an unbounded `!(...)` extglob).
 */
export function compileGlob(patterns: string | readonly string[], options: GlobOptions = {}): GlobMatcher {
  const list = typeof patterns === 'string' ? [patterns] : patterns;
  const compiled = list.map((pattern) => ({ pattern, ...compile(pattern, options) }));
  // picomatch.test: an empty input never matches; an input equal to the pattern always does; a
  // negated glob's `.*$` wrapper cannot cross a line terminator.
  const match = (input: string) =>
    input !== '' &&
    compiled.some(({ pattern, regex, negated }) => (input === pattern ? true : negated ? !regex.test(input) && !hasLineTerminator(input) : regex.test(input)));
  return Object.defineProperty(match, 'steps', { get: () => compiled.reduce((sum, { regex }) => sum + regex.steps, 0) }) as GlobMatcher;
}

function compileError(pattern: string, options: GlobOptions): unknown {
  try {
    compileGlob(pattern, options);
    return undefined;
  } catch (error) {
    return error;
  }
}

const unsupportedMessage = (error: UnsupportedPatternError) => `uses ${error.message}, which the linear-time matcher does not support`;

/** Why `pattern` is not a usable glob with `options`, or undefined when it is. */
export function globSyntaxProblem(pattern: string, options: GlobOptions = {}): string | undefined {
  const error = compileError(pattern, options);
  if (error === undefined) return undefined;
  if (error instanceof UnsupportedPatternError) return unsupportedMessage(error);
  return 'is not a valid glob (check for an unclosed brace, a reversed range or a trailing backslash)';
}

/**
 * Why the linear-time matcher refuses `pattern` (a backreference, an unbounded `!(...)`), or
 * undefined. A glob picomatch cannot compile is not reported: it simply matches nothing.
 */
export function unsupportedGlobProblem(pattern: string, options: GlobOptions = {}): string | undefined {
  const error = compileError(pattern, options);
  return error instanceof UnsupportedPatternError ? unsupportedMessage(error) : undefined;
}
