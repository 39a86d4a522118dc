// Reports source files that lack the licence header the repository requires. Inactive (subscribes
// to nothing) until the `header` or `pattern` option is set.
import { compileSafeRegExp, defineRule, safeRegExpProblem } from '@codehealth/engine/kit';
import { z } from 'zod';

const options = z
  .object({
    /** Text the header must contain; compared without comment markers and with whitespace collapsed. */
    header: z.string().min(1).optional(),
    /**
     * Regular expression the header must match (multi-line text, comment markers kept). It comes from
     * the repository's config, so it runs in linear time: backreferences are refused.
     */
    pattern: z
      .string()
      .min(1)
      .superRefine((source, ctx) => {
        const problem = safeRegExpProblem(source);
        if (problem) ctx.addIssue({ code: 'custom', message: `must be a regular expression this rule can run: it ${problem}` });
      })
      .optional(),
    /** How many lines at the top of a file are searched. */
    lines: z.number().int().positive().default(30),
  })
  .strict()
  .prefault({});

/** `/*`, `*\/`, `//`, leading `*` and `#` go; runs of whitespace become one space. */
export function normaliseHeaderText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:\/\*+|\*+\/|\/\/+|\*+(?!\/)|#!?)?/, '').replace(/\*+\/\s*$/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const licenseHeader = defineRule({
  kind: 'file',
  meta: {
    id: 'license-header',
    description: 'Source files without the licence header the repository requires',
    category: 'compliance',
    severity: 'low',
    options,
    confidence: 95,
    autoFixable: true,
    docs: {
      whyItMatters:
        'Some licences and most corporate policies require every source file to carry a copyright and licence notice, so that a ' +
        'file copied out of the repository still says who owns it and under which terms it may be used.',
      suggestedAction: 'Add the required header at the top of the file (after a shebang line, if any).',
    },
  },
  create(context) {
    const { header, pattern, lines } = context.options;
    if (!header && !pattern) return {};
    const expected = header ? normaliseHeaderText(header) : undefined;
    const regex = pattern ? compileSafeRegExp(pattern) : undefined;
    return {
      program() {
        const head = context.source.split(/\r?\n/, lines).join('\n');
        // An empty module has nothing to license.
        if (head.trim() === '' && context.source.trim() === '') return;
        const missing: string[] = [];
        if (expected && !normaliseHeaderText(head).includes(expected))
          missing.push(`the text "${expected.length > 80 ? `${expected.slice(0, 77)}...` : expected}"`);
        if (regex && !regex.test(head)) missing.push(`a match for /${pattern}/`);
        if (missing.length === 0) return;
        const file = context.file.path.slice(context.file.path.lastIndexOf('/') + 1);
        context.report({
          lineStart: 1,
          title: `Missing licence header in ${file}`,
          description: `The first ${lines} lines of ${context.file.path} do not contain ${missing.join(', nor ')}, which the repository requires in every source file.`,
          data: { lines },
        });
      },
    };
  },
});
