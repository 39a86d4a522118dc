// Wire schemas of this service's extension of the spec's Health assessment (docs/rest-api.md, "Not
// assessed, no grade, score ledger"): the spec's score fields stay numbers 0-100 and the grade a
// letter; these fields say which of them are placeholders, and where the points went.
import { z } from 'zod';
import { HEALTH_CATEGORY_KEYS } from '@codehealth/engine';

const Points = z.number().min(0).max(100);

/** Fields added to the Health assessment and its trend points. */
export const gradingFields = {
  graded: z.boolean().meta({
    description:
      'false when `overall_score` (0) and `overall_grade` (F) are placeholders: no production code any analyzer reads, nothing assessed, or the run has not completed',
  }),
  not_graded_reason: z
    .string()
    .nullable()
    .meta({ description: 'why there is no grade (null when `graded`), e.g. "no TypeScript or JavaScript files: 3 Python files are not analysed"' }),
  not_assessed: z
    .partialRecord(z.enum(HEALTH_CATEGORY_KEYS), z.string())
    .meta({ description: 'categories not assessed, each with its reason; their `<key>_score` is a placeholder 0. Empty when all 8 are assessed' }),
};

const EvidenceSchema = z.union([
  z.strictObject({ kind: z.literal('findings'), analyzers: z.array(z.string()).meta({ description: 'analyzers whose enabled rules looked for findings' }) }),
  z.strictObject({ kind: z.enum(['structural-coverage', 'coverage-report', 'duplication-index', 'convention-consistency']), value: z.number() }),
]);

const CategoryLedgerEntrySchema = z.strictObject({
  kind: z.enum(['rule', 'measurement']),
  id: z.string().meta({ description: 'the rule id (`<analyzer>/<rule>`), or the measurement' }),
  findings: z.number().int().min(0).nullable(),
  points: z.number().min(0).nullable().meta({ description: 'severity points of the findings (critical 10, high 5, medium 2, low 1, info 0)' }),
  value: z.number().nullable().meta({ description: 'the measured value of a measurement' }),
  cost: Points.meta({ description: 'points of the category score it cost' }),
});

const CategoryLedgerSchema = z.strictObject({
  assessed: z.boolean(),
  not_assessed_reason: z.string().nullable(),
  evidence: z.array(EvidenceSchema).meta({ description: 'what the score rests on' }),
  ledger: z.array(CategoryLedgerEntrySchema).meta({ description: 'costs add up to 100 − the category score (in tenths, exactly)' }),
});

export const ScoreLedgerSchema = z
  .strictObject({
    scoring_model: z.string(),
    overall: z
      .array(
        z.strictObject({
          category: z.enum(HEALTH_CATEGORY_KEYS),
          share: z.number().min(0).max(1).meta({ description: "the category's weight over the assessed categories' weights" }),
          score: Points,
          cost: Points.meta({ description: 'points of the overall score it cost' }),
        }),
      )
      .meta({ description: 'costs add up to 100 − overall_score (in tenths, exactly); empty without a grade' }),
    categories: z.strictObject(
      Object.fromEntries(HEALTH_CATEGORY_KEYS.map((key) => [key, CategoryLedgerSchema])) as Record<
        (typeof HEALTH_CATEGORY_KEYS)[number],
        typeof CategoryLedgerSchema
      >,
    ),
    non_production: z
      .record(z.string(), z.strictObject({ findings: z.number().int().min(0), points: z.number().min(0), lines_of_code: z.number().int().min(0).nullable() }))
      .meta({ description: 'findings outside production code by role (test, example, benchmark, ...): reported, counted in no score' }),
  })
  .meta({
    id: 'ScoreLedger',
    description: 'Why the assessment scored what it did: what each category cost of the overall score and what each rule or measurement cost of its category.',
  });
export type ScoreLedger = z.infer<typeof ScoreLedgerSchema>;
