// Regular expressions that cannot freeze the event loop: the syntax is JavaScript's (checked by
// `new RegExp`, never run by it), the matching is the linear-time NFA simulation of nfa-runner.ts,
// so a test costs at most O(pattern × subject) — no catastrophic backtracking, whoever wrote the
// pattern. Backreferences (which need backtracking: matching them is NP-hard) and the `u`/`v` flags
// are refused with an UnsupportedPatternError saying which; lookarounds of any length are run.
import { compileNfa } from './nfa.js';
import { NfaRunner } from './nfa-runner.js';
import { parseRegex, UnsupportedPatternError, type RegexNode } from './regex-syntax.js';

export { UnsupportedPatternError } from './regex-syntax.js';

/** The part of RegExp a pattern's users need, with a work counter instead of a clock. */
export interface SafeRegExp {
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern matches somewhere in `subject`; `g` and `y` are ignored (no `lastIndex`). */
  test(subject: string): boolean;
  /** Work done by all tests so far (states visited, characters read), for tests of the bound. */
  readonly steps: number;
}

/** Parses `source` with `flags`; throws SyntaxError (invalid) or UnsupportedPatternError. */
function parseSafeRegExp(source: string, flags = ''): RegexNode {
  // Only compiled, to have JavaScript's own verdict on the syntax; never executed.
  new RegExp(source, flags);
  if (flags.includes('u') || flags.includes('v')) throw new UnsupportedPatternError('the u and v flags');
  return parseRegex(source, { ignoreCase: flags.includes('i'), multiline: flags.includes('m'), dotAll: flags.includes('s') });
}

export function compileSafeRegExp(source: string, flags = ''): SafeRegExp {
  const runner = new NfaRunner(compileNfa(parseSafeRegExp(source, flags), flags.includes('i')));
  return {
    source,
    flags,
    test: (subject) => runner.test(subject),
    get steps() {
      return runner.steps;
    },
  };
}

/**
 * Why `source` cannot be used as a safe regular expression (a syntax error, or a construct the
 * linear-time matcher does not run), or undefined when it can. For validating options.
 */
export function safeRegExpProblem(source: string, flags = ''): string | undefined {
  try {
    compileSafeRegExp(source, flags);
    return undefined;
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return `uses ${error.message}, which the linear-time matcher does not support`;
    return `is not a valid regular expression (${(error as Error).message})`;
  }
}
