// Flags test cases that never assert: they pass whenever the code under test does not throw.
import { defineRule } from '@codehealth/engine/kit';
import { z } from 'zod';
import { resolveTestSuite } from '../shared/assertion-resolution.js';

const DEFAULT_MAX_PER_FILE = 20;

const options = z
  .object({ maxPerFile: z.number().int().positive().default(DEFAULT_MAX_PER_FILE) })
  .strict()
  .default({ maxPerFile: DEFAULT_MAX_PER_FILE });

/** Test titles in finding titles are cut to this many characters. */
const MAX_TITLE = 80;
const SUITE_SEPARATOR = ' > ';

/**
 * Type tests (`*.test-d.ts`: vitest's typecheck mode, tsd): the compiler checks them and nothing
 * runs them, so a runtime assertion is not what they lack.
 */
const TYPE_TEST_FILE = /\.test-d\.[cm]?tsx?$/;

/** Confidence when the test calls imported code the analysis cannot read (a package's helper may assert). */
const OPAQUE_CONFIDENCE = 60;

export const testsWithoutAssertions = defineRule({
  kind: 'repository',
  meta: {
    id: 'tests-without-assertions',
    description: 'Test cases without any assertion',
    category: 'testing',
    severity: 'info',
    options,
    confidence: 80,
    docs: {
      whyItMatters:
        'A test without an assertion passes as long as the code does not throw: it counts as coverage and gives ' +
        'confidence while checking nothing about the result, so the regressions it seems to guard go unnoticed.',
      suggestedAction:
        'Assert on the outcome (return value, state, calls on a double) with expect/assert, or, when the point is ' +
        'that the code does not throw, say so: `expect(() => run()).not.toThrow()`.',
    },
  },
  analyze(context) {
    const { maxPerFile } = context.options;
    const suite = resolveTestSuite(context.summaries, context.graph);
    const perFile = new Map<string, number>();
    for (const test of suite.tests) {
      if (test.effectiveAssertions > 0 || test.exempt || test.unreadCalls.length > 0 || TYPE_TEST_FILE.test(test.path)) continue;
      const count = (perFile.get(test.path) ?? 0) + 1;
      perFile.set(test.path, count);
      if (count > maxPerFile) continue;
      const name = test.path.slice(test.path.lastIndexOf('/') + 1);
      const cut = test.name.lastIndexOf(SUITE_SEPARATOR);
      const title = cut === -1 ? test.name : test.name.slice(cut + SUITE_SEPARATOR.length);
      const opaque = test.opaqueCalls.length > 0;
      context.report({
        filePath: test.path,
        lineStart: test.line,
        lineEnd: test.endLine,
        title: `Test "${title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - '...'.length)}...` : title}" in ${name} has no assertion`,
        description:
          `The test \`${test.name}\` calls no assertion (expect, assert, should, t.*, verify), no helper that ` +
          'asserts, and takes no done callback: it passes as long as nothing throws.' +
          (opaque ? ` It calls ${test.opaqueCalls.map((call) => `\`${call}\``).join(', ')} from a package, which may assert.` : ''),
        symbol: test.name,
        ...(opaque ? { confidence: OPAQUE_CONFIDENCE } : {}),
        data: { calls: test.calls.length },
      });
    }
  },
});
