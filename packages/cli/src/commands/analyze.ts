// `codehealth analyze`: assess a directory with the engine and print one report format.
import { stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AssessmentResult } from '@codehealth/engine';
import { describeThreshold, isBelow, parseAnalyzeArgs, parseFailUnder, type FailUnder, type ReportFormat } from '../args.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { colorAllowed, type CliIo } from '../io.js';
import { createProgressReporter } from '../progress.js';

export const ANALYZE_USAGE = `Usage: codehealth analyze [dir] [options]

Assess the code health of a directory (default: the current one) and print a report.

Options:
  -f, --format <format>      text (default), json, sarif or markdown
  -o, --output <file>        write the report to a file instead of stdout
      --fail-under <n|grade> exit 1 when the overall score is below n (0-100) or the grade
                             below the given one (A-F), or when there is no grade (no
                             code the analyzers read); default: the config's thresholds.failUnder
      --no-cache             neither read nor write the file-summary cache
      --untrusted            run no code the directory names: read codehealth.config.json
                             only and load none of its plugins (CI on a fork's pull request)
  -q, --quiet                no progress on stderr
  -h, --help                 show this help

Exit codes: 0 passed, 1 below the threshold, 2 bad usage or input, 70 internal error,
130 interrupted.
`;

type EngineModule = typeof import('@codehealth/engine');

async function assertDirectory(path: string, shown: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new UsageError(`no such directory: ${shown}`);
    throw new UsageError(`cannot read ${shown}: ${error.code ?? error.message}`);
  });
  if (!info.isDirectory()) throw new UsageError(`not a directory: ${shown}`);
}

function render(api: EngineModule, result: AssessmentResult, format: ReportFormat, color: boolean): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(api.toJsonReport(result), null, 2)}\n`;
    case 'sarif':
      return `${JSON.stringify(api.toSarif(result), null, 2)}\n`;
    case 'markdown':
      return api.renderMarkdown(result);
    case 'text':
      return api.renderText(result, { color });
  }
}

function thresholdOf(flag: FailUnder | undefined, result: AssessmentResult): FailUnder | undefined {
  const configured = result.config.thresholds?.failUnder;
  return flag ?? (configured === undefined ? undefined : parseFailUnder(configured));
}

function interrupted(): Error {
  return Object.assign(new Error('interrupted'), { name: 'AbortError' });
}

export async function runAnalyze(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseAnalyzeArgs(argv);
  if (args.help) {
    io.stdout.write(ANALYZE_USAGE);
    return EXIT.ok;
  }
  const dir = resolve(io.cwd, args.dir);
  await assertDirectory(dir, args.dir);

  // Loaded only once the arguments and the directory are known to be good: a typo should not wait
  // for the parsers and plugins to load.
  const api: EngineModule = await import('@codehealth/engine');
  const progress = createProgressReporter(io.stderr, !args.quiet);
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  let result: AssessmentResult;
  try {
    const engine = await api.createEngine(args.cache ? {} : { cacheDir: false });
    result = await engine.analyze(dir, { signal: controller.signal, onProgress: progress.onProgress, allowCodeConfig: !args.untrusted });
  } finally {
    progress.finish();
    stopListening();
  }
  // An engine that finished despite the abort still produced what the user no longer wants.
  if (controller.signal.aborted) throw interrupted();

  const report = render(api, result, args.format, !args.output && colorAllowed(io.stdout, io.env));
  if (args.output) {
    const target = resolve(io.cwd, args.output);
    await writeFile(target, report).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot write the report to ${args.output}: ${error.code ?? error.message}`);
    });
    if (!args.quiet) io.stderr.write(`Report written to ${args.output}\n`);
  } else {
    io.stdout.write(report);
  }

  const threshold = thresholdOf(args.failUnder, result);
  if (!threshold) return EXIT.ok;
  const { overall, grade } = result.scores;
  // Nothing graded cannot pass a gate: a repository the analyzers cannot read is not healthy by default.
  if (overall === null || grade === null) {
    io.stderr.write(`codehealth: no grade: ${result.scores.notGradedReason ?? 'nothing could be assessed'}; ${describeThreshold(threshold)} is not met\n`);
    return EXIT.belowThreshold;
  }
  if (isBelow(threshold, overall, grade)) {
    const score = (Math.round(overall * 10) / 10).toFixed(1);
    io.stderr.write(`codehealth: overall score ${score} (grade ${grade}) is below ${describeThreshold(threshold)}\n`);
    return EXIT.belowThreshold;
  }
  return EXIT.ok;
}
