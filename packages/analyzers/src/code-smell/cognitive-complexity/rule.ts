// Flags functions whose Cognitive Complexity exceeds a threshold (SonarSource S3776).
import { defineRule } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCognitiveComplexityVisitor, type FunctionComplexity, type Increment } from './counter.js';

const DEFAULT_THRESHOLD = 15;

const options = z
  .object({
    /** Highest complexity allowed; sonarjs's default. 0 reports every function that has any. */
    threshold: z.number().int().nonnegative().default(DEFAULT_THRESHOLD),
    /** `sonarjs` matches eslint-plugin-sonarjs 4; `specification` follows the white paper. */
    variant: z.enum(['sonarjs', 'specification']).default('sonarjs'),
  })
  .strict()
  .default({ threshold: DEFAULT_THRESHOLD, variant: 'sonarjs' });

/** How many of the largest increments the description names, so a reader knows where to start. */
const LISTED_INCREMENTS = 3;

function describeIncrement(increment: Increment): string {
  const nesting = increment.nesting > 0 ? ` (nesting ${increment.nesting})` : '';
  return `line ${increment.line}: ${increment.construct} +${increment.value}${nesting}`;
}

function describeFinding(result: FunctionComplexity, threshold: number): string {
  const largest = [...result.increments].sort((a, b) => b.value - a.value || a.line - b.line || a.column - b.column).slice(0, LISTED_INCREMENTS);
  return (
    `${result.name} has a Cognitive Complexity of ${result.complexity}, above the ${threshold} allowed, ` +
    `from ${result.increments.length} increments. The largest: ${largest.map(describeIncrement).join('; ')}.`
  );
}

export const cognitiveComplexity = defineRule({
  kind: 'file',
  meta: {
    id: 'cognitive-complexity',
    description: 'Functions whose Cognitive Complexity exceeds a threshold',
    category: 'code_smell',
    severity: 'info',
    metric: { values: ['complexity'] },
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'Cognitive Complexity measures how hard a function is to follow: every break in linear flow costs a point and ' +
        'every level of nesting makes the next break cost more. Functions that score high are where bugs hide and ' +
        'where changes take longest to review.',
      suggestedAction:
        'Extract nested blocks into well-named functions, return early instead of nesting, and replace chains of ' +
        'conditions with lookups or polymorphism until the score is under the threshold.',
    },
  },
  create(context) {
    const { threshold, variant } = context.options;
    return createCognitiveComplexityVisitor(variant, (result) => {
      if (result.complexity <= threshold) return;
      context.report({
        node: result.node,
        title: `Cognitive Complexity of ${result.name} is ${result.complexity} (threshold ${threshold})`,
        description: describeFinding(result, threshold),
        severity: 'info',
        symbol: result.name,
        data: { complexity: result.complexity, threshold },
      });
    });
  },
});
