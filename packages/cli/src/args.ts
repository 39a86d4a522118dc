// Command-line arguments of `codehealth analyze`, parsed strictly with node:util so that a mistyped
// flag is an error rather than silently ignored.
import { parseArgs } from 'node:util';
import { UsageError } from './exit-codes.js';

export const FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
export type ReportFormat = (typeof FORMATS)[number];

const GRADES = ['A', 'B', 'C', 'D', 'F'] as const;
export type GradeLetter = (typeof GRADES)[number];

export type FailUnder = { kind: 'score'; score: number } | { kind: 'grade'; grade: GradeLetter };

export interface AnalyzeArgs {
  dir: string;
  format: ReportFormat;
  output?: string;
  failUnder?: FailUnder;
  cache: boolean;
  /** Run no code the directory names (code configs, config plugins): CI on a fork's pull request. */
  untrusted: boolean;
  quiet: boolean;
  help: boolean;
}

/** Accepts what the config's `thresholds.failUnder` accepts: a score 0-100 or a grade letter. */
export function parseFailUnder(value: string | number): FailUnder {
  if (typeof value === 'number' || /^\d+(\.\d+)?$/.test(value.trim())) {
    const score = Number(value);
    if (score >= 0 && score <= 100) return { kind: 'score', score };
  } else {
    const grade = value.trim().toUpperCase();
    if ((GRADES as readonly string[]).includes(grade)) return { kind: 'grade', grade: grade as GradeLetter };
  }
  throw new UsageError(`--fail-under expects a score from 0 to 100 or a grade A-F, got '${value}'`);
}

/** True when the result does not meet the threshold. Scores compare as reported (one decimal). */
export function isBelow(threshold: FailUnder, overallScore: number, grade: string): boolean {
  if (threshold.kind === 'score') return Math.round(overallScore * 10) / 10 < threshold.score;
  return GRADES.indexOf(grade as GradeLetter) > GRADES.indexOf(threshold.grade);
}

export function describeThreshold(threshold: FailUnder): string {
  return threshold.kind === 'score' ? `score ${threshold.score}` : `grade ${threshold.grade}`;
}

/** node:util's messages explain positional escaping at length; one short line is enough here. */
export function usageErrorOf(error: unknown, command = 'analyze'): UsageError {
  const { code, message } = error as { code?: string; message?: string };
  // "Unknown option '--x'", "Option '-f, --format <value>' argument missing": the long name wins.
  const option = /'(?:-\w, )?(--?[^'\s,]+)/.exec(message ?? '')?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option '${option ?? message}' (see 'codehealth ${command} --help')`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(`option '${option ?? '?'}' needs a value`);
    default:
      return new UsageError(message?.split('\n')[0] ?? String(error));
  }
}

export function parseAnalyzeArgs(argv: readonly string[]): AnalyzeArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        format: { type: 'string', short: 'f' },
        output: { type: 'string', short: 'o' },
        'fail-under': { type: 'string' },
        'no-cache': { type: 'boolean' },
        untrusted: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageErrorOf(error);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`analyze takes one directory, got ${positionals.length}: ${positionals.join(' ')}`);
  const format = values.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown format '${format}' (expected ${FORMATS.join(', ')})`);
  }
  if (values.output !== undefined && values.output.trim() === '') throw new UsageError('--output needs a file name');
  return {
    dir: positionals[0] ?? '.',
    format: format as ReportFormat,
    ...(values.output !== undefined ? { output: values.output } : {}),
    ...(values['fail-under'] !== undefined ? { failUnder: parseFailUnder(values['fail-under']) } : {}),
    cache: values['no-cache'] !== true,
    untrusted: values.untrusted === true,
    quiet: values.quiet === true,
    help: values.help === true,
  };
}
