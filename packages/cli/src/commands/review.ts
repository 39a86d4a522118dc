// `codehealth review`: the pull-request analysis of a local change (engine.analyzeChange) — new and
// fixed findings, merge readiness, projection, intent — printed in one format, with a gate that
// fails a CI build on what the change adds only.
import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChangeAnalysis, ChangeGate, CodeHealthConfig } from '@codehealth/engine';
import { usageErrorOf } from '../args.js';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { createProgressReporter } from '../progress.js';

export const REVIEW_USAGE = `Usage: codehealth review [dir] [options]

Analyse a change like a pull request, on this machine: the findings it adds and fixes in the
changed code, merge readiness and why, the health projection, intent and scope. No code of the
repository is run. When an earlier --full-base review kept the merge base's findings beside the
cache, every rule is compared; otherwise (a cold review) only the changed files are analysed on
both sides, with their file rules, and the report lists the repository rules not evaluated.

Options:
      --base <ref>             compare with this revision (its merge base with head);
                               default: the default branch (origin/HEAD, origin/main, main, …)
      --head <ref>             the change; default: HEAD (the work tree when it is clean)
      --full-base              assess the merge base in full when its findings are not
                               cached (every rule compared; slower), and keep them
  -f, --format <format>        text (default), markdown (a PR comment), json, or sarif
                               (only what the change adds: baselineState "new", or
                               "updated" for an issue it made worse)
  -o, --output <file>          write the report to a file instead of stdout
      --fail-on <severity>     exit 1 when the change adds (or makes worse) a finding at
                               or above this severity (critical, high, medium, low, info)
      --fail-on-readiness <v>  exit 1 when merge readiness is v or worse (blocked, or
                               needs_review for either); defaults for both gates: the
                               config's thresholds.review { failOn, failOnReadiness }
      --no-cache               neither read nor write the file-summary cache
  -q, --quiet                  no progress on stderr
  -h, --help                   show this help

Exit codes: 0 passed, 1 the gate failed, 2 bad usage or input (an unknown revision, a
shallow clone without the base), 70 internal error, 130 interrupted.
`;

export const REVIEW_FORMATS = ['text', 'markdown', 'json', 'sarif'] as const;
type ReviewFormat = (typeof REVIEW_FORMATS)[number];
const SEVERITY_NAMES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const READINESS_GATES = ['needs_review', 'blocked'] as const;

export interface ReviewArgs {
  dir: string;
  base?: string;
  head?: string;
  format: ReviewFormat;
  output?: string;
  gate: ChangeGate;
  fullBase: boolean;
  cache: boolean;
  quiet: boolean;
  help: boolean;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} expects one of ${allowed.join(', ')}, got '${value}'`);
}

export function parseReviewArgs(argv: readonly string[]): ReviewArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        base: { type: 'string' },
        head: { type: 'string' },
        format: { type: 'string', short: 'f' },
        output: { type: 'string', short: 'o' },
        'fail-on': { type: 'string' },
        'fail-on-readiness': { type: 'string' },
        'full-base': { type: 'boolean' },
        'no-cache': { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageErrorOf(error, 'review');
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`review takes one directory, got ${positionals.length}: ${positionals.join(' ')}`);
  for (const flag of ['base', 'head', 'output'] as const) {
    if (values[flag] !== undefined && values[flag].trim() === '') throw new UsageError(`--${flag} needs a value`);
  }
  const gate: ChangeGate = {};
  if (values['fail-on'] !== undefined) gate.failOn = oneOf(values['fail-on'], SEVERITY_NAMES, '--fail-on');
  if (values['fail-on-readiness'] !== undefined) gate.failOnReadiness = oneOf(values['fail-on-readiness'], READINESS_GATES, '--fail-on-readiness');
  return {
    dir: positionals[0] ?? '.',
    ...(values.base !== undefined ? { base: values.base } : {}),
    ...(values.head !== undefined ? { head: values.head } : {}),
    format: oneOf(values.format ?? 'text', REVIEW_FORMATS, '--format'),
    ...(values.output !== undefined ? { output: values.output } : {}),
    gate,
    fullBase: values['full-base'] === true,
    cache: values['no-cache'] !== true,
    quiet: values.quiet === true,
    help: values.help === true,
  };
}

type EngineModule = typeof import('@codehealth/engine');

function render(api: EngineModule, analysis: ChangeAnalysis, format: ReviewFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(analysis, null, 2)}\n`;
    case 'sarif':
      return `${JSON.stringify(api.changeToSarif(analysis), null, 2)}\n`;
    case 'markdown':
      return api.renderChangeMarkdown(analysis);
    case 'text':
      return api.renderChangeText(analysis);
  }
}

/**
 * The work tree's top-level directory, which the review analyses; `dir` itself outside git (the engine then refuses it in words).
 * Through the engine's hardened git runner, as the user's own git sees the directory (their GIT_* variables and system config).
 */
async function topLevelOf(api: EngineModule, dir: string): Promise<string> {
  const result = await api.runGitCommand({ cwd: dir, args: ['rev-parse', '--show-toplevel'], environment: { inheritGitVariables: true, systemConfig: true } });
  const top = result.exitCode === 0 ? result.stdout.toString('utf8').trim() : '';
  return top || dir;
}

/**
 * The gate from the config of the repository's top-level directory (the one its analysis reads),
 * wherever in the work tree the review runs: `codehealth.config.json` only. A review may run on a change nobody has
 * reviewed yet, so no code config of the repository is loaded for it; flags override the file.
 */
async function configuredGate(api: EngineModule, dir: string): Promise<ChangeGate> {
  const jsonConfig = await stat(join(dir, 'codehealth.config.json')).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!jsonConfig) return {};
  const loaded = await api.loadConfig(dir, { allowCode: false });
  const review = (loaded.config as CodeHealthConfig).thresholds?.review;
  return { ...(review?.failOn ? { failOn: review.failOn } : {}), ...(review?.failOnReadiness ? { failOnReadiness: review.failOnReadiness } : {}) };
}

export async function runReview(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseReviewArgs(argv);
  if (args.help) {
    io.stdout.write(REVIEW_USAGE);
    return EXIT.ok;
  }
  const dir = resolve(io.cwd, args.dir);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`not a directory: ${args.dir}`);

  const api: EngineModule = await import('@codehealth/engine');
  const gate = { ...(await configuredGate(api, await topLevelOf(api, dir))), ...args.gate };
  const progress = createProgressReporter(io.stderr, !args.quiet);
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  let analysis: ChangeAnalysis;
  const engine = await api.createEngine(args.cache ? {} : { cacheDir: false });
  try {
    analysis = await engine.analyzeChange({
      root: dir,
      ...(args.base !== undefined ? { base: args.base } : {}),
      ...(args.head !== undefined ? { head: args.head } : {}),
      fullBase: args.fullBase,
      signal: controller.signal,
      onProgress: progress.onProgress,
    });
  } finally {
    progress.finish();
    stopListening();
    await engine.close();
  }
  if (controller.signal.aborted) throw Object.assign(new Error('interrupted'), { name: 'AbortError' });

  const report = render(api, analysis, args.format);
  if (args.output) {
    await writeFile(resolve(io.cwd, args.output), report).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot write the report to ${args.output}: ${error.code ?? error.message}`);
    });
    if (!args.quiet) io.stderr.write(`Report written to ${args.output}\n`);
  } else {
    io.stdout.write(report);
  }

  const failures = api.changeGateFailures(analysis, gate);
  for (const failure of failures) io.stderr.write(`codehealth: ${failure}\n`);
  return failures.length > 0 ? EXIT.belowThreshold : EXIT.ok;
}
