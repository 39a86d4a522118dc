// A repository rule: console output written from many modules means logging has no owner. It reads
// the per-file facts of the `console-calls` collector and publishes how many modules write there.
import { defineRule } from '@codehealth/engine';
import { z } from 'zod';
import { CONSOLE_CALLS } from './collector.js';

const options = z
  .object({
    /** Most source modules that may call console.* before each of them is reported. */
    maxFiles: z.number().int().min(0).default(3),
  })
  .strict()
  .default({ maxFiles: 3 });

export const scatteredConsole = defineRule({
  kind: 'repository',
  meta: {
    id: 'scattered-console',
    description: 'console.* output written from many modules instead of one logger',
    category: 'code_smell',
    severity: 'low',
    options,
    confidence: 80,
    docs: {
      whyItMatters: 'When many modules write to the console, nobody can change the log format, level or destination in one place.',
      suggestedAction: 'Route the output through one logging module and import it where messages are written.',
    },
  },
  analyze(context) {
    const writers = context.summaries
      .filter((summary) => summary.kind === 'source')
      .map((summary) => ({ path: summary.path, lines: (summary.facts[`no-console/${CONSOLE_CALLS}`] as number[] | undefined) ?? [] }))
      .filter((writer) => writer.lines.length > 0);
    context.metric('filesWithConsole', writers.length);
    if (writers.length <= context.options.maxFiles) return;
    for (const writer of writers) {
      context.report({
        filePath: writer.path,
        lineStart: writer.lines[0],
        title: `console output from one of ${writers.length} modules`,
        description: `${writer.path} calls console.* ${writer.lines.length} time(s); ${writers.length} modules write to the console (at most ${context.options.maxFiles} expected).`,
        data: { calls: writer.lines.length, modules: writers.length },
      });
    }
  },
});
