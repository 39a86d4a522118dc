// The schema of a repository's `codehealth.config.{json,js,mjs,ts}`. One schema validates the file
// and types it; unknown keys are refused so that typos do not silently do nothing.
import { z } from 'zod';
import { HEALTH_CATEGORY_KEYS, SEVERITIES } from '../domain/types.js';
import { unsupportedGlobProblem } from '../patterns/glob.js';
import { CLASSIFY_GLOB_OPTIONS } from '../snapshot/classify.js';
import { CONFIGURABLE_ROLES } from '../snapshot/file-roles.js';

/** The largest `maxFileBytes` a config may set. */
export const MAX_FILE_BYTES_LIMIT = 16 * 1024 * 1024;

const severity = z.enum(SEVERITIES);

const ruleSetting = z.union([
  z.literal('off'),
  z.boolean(),
  z
    .object({
      enabled: z.boolean().optional(),
      severity: severity.optional(),
      options: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
]);

/** A `tests` or `generated` glob: matched in linear time, which refuses a few constructs (patterns/glob.ts). */
const classifyGlob = z
  .string()
  .min(1)
  .superRefine((glob, ctx) => {
    const problem = unsupportedGlobProblem(glob, CLASSIFY_GLOB_OPTIONS);
    if (problem) ctx.addIssue({ code: 'custom', message: `glob ${JSON.stringify(glob)} ${problem}` });
  });

const analyzerSetting = z.union([z.boolean(), z.object({ enabled: z.boolean().optional() }).strict()]);

const driftThresholds = z
  .object({
    categoryScoreDrop: z.number().min(0).optional(),
    overallScoreDrop: z.number().min(0).optional(),
    coverageDrop: z.number().min(0).optional(),
    conventionDrop: z.number().min(0).optional(),
    churnRise: z.number().min(0).optional(),
    churnMinRate: z.number().min(0).optional(),
    includeImprovements: z.boolean().optional(),
  })
  .strict();

export const configSchema = z
  .object({
    $schema: z.string().optional(),
    /** Plugin packages (npm names, resolved from the repository, or paths relative to the config file). */
    plugins: z.array(z.string().min(1)).optional(),
    /** Enable (`true`) or disable (`false`) analyzers by id. */
    analyzers: z.record(z.string(), analyzerSetting).optional(),
    /** Per-rule settings by fully qualified id `<analyzer>/<rule>`. */
    rules: z.record(z.string().regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, 'rule ids are written <analyzer>/<rule>'), ruleSetting).optional(),
    /** Globs (gitignore-style) of paths never analysed. */
    exclude: z.array(z.string().min(1)).optional(),
    /** Globs of files to treat as tests, added to the built-in conventions. */
    tests: z.array(classifyGlob).optional(),
    /** Globs of generated files, added to the built-in conventions. */
    generated: z.array(classifyGlob).optional(),
    /**
     * Globs of files by role (`{ "benchmark": ["perf-measures/**"], "production": ["scripts/shipped/**"] }`),
     * before the built-in conventions (snapshot/file-roles.ts); the first role listed whose globs match wins.
     */
    roles: z.partialRecord(z.enum(CONFIGURABLE_ROLES), z.array(classifyGlob)).optional(),
    /**
     * Files larger than this are inventoried but skipped (bytes; at most 16 MiB: a repository's
     * config must not be able to hold a shared server's assessment on one huge file).
     */
    maxFileBytes: z.number().int().positive().max(MAX_FILE_BYTES_LIMIT, 'maxFileBytes is at most 16777216 (16 MiB)').optional(),
    thresholds: z
      .object({
        /** Fail `codehealth analyze` when the overall score is below this number or grade. */
        failUnder: z.union([z.number().min(0).max(100), z.enum(['A', 'B', 'C', 'D', 'F'])]).optional(),
        drift: driftThresholds.optional(),
        /** The gate of `codehealth review` (flags override it). */
        review: z
          .object({
            /** Fail when the change introduces a finding at or above this severity. */
            failOn: z.enum(SEVERITIES).optional(),
            /** Fail when the merge readiness is this or worse (`blocked`, or `needs_review` for either). */
            failOnReadiness: z.enum(['needs_review', 'blocked']).optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    scoring: z
      .object({
        weights: z.partialRecord(z.enum(HEALTH_CATEGORY_KEYS), z.number().min(0)).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type CodeHealthConfig = z.infer<typeof configSchema>;
export type RuleSetting = z.infer<typeof ruleSetting>;
