// Flags ESLint disable comments that name no rule: `/* eslint-disable */` turns every rule off
// from there on, `// eslint-disable-next-line` every rule for a line, including rules added later.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { lintDirectiveOf } from '../shared/directives.js';

const options = z
  .object({
    /** Also report directives that name their rules but give no `-- reason`, at `info`. */
    requireReason: z.boolean().default(false),
  })
  .strict()
  .default({ requireReason: false });

/** The comment comes before the file's first statement. */
function isLeading(node: SyntaxNode): boolean {
  if (node.parent?.type !== 'program') return false;
  for (let sibling = node.previousSibling; sibling; sibling = sibling.previousSibling) {
    if (sibling.type !== 'comment' && sibling.type !== 'hash_bang_line') return false;
  }
  return true;
}

/** A line that holds code: not blank, not only a comment. */
function holdsCode(line: string | undefined): boolean {
  const text = line?.trim() ?? '';
  return text !== '' && !text.startsWith('//') && !text.startsWith('/*') && !text.startsWith('*');
}

export const blanketLintDisable = defineRule({
  kind: 'file',
  meta: {
    id: 'blanket-lint-disable',
    description: 'ESLint disable comments that name no rule',
    category: 'code_smell',
    severity: 'low',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'A disable comment without rule names switches off every lint rule, not the one that was in the way: later ' +
        'mistakes in the same code, and rules added to the configuration later, are silenced too, and nobody can tell ' +
        'what was meant to be allowed.',
      suggestedAction:
        'Name the rules (`// eslint-disable-next-line no-console -- CLI output`), or fix the code so no disable is needed. ' +
        "ESLint's `reportUnusedDisableDirectives` then says when a disable is no longer needed.",
    },
  },
  create(context) {
    const { requireReason } = context.options;
    const lines = context.source.split('\n');
    return {
      comment(node) {
        const directive = lintDirectiveOf(node.text);
        if (!directive) return;
        // A whole-file opt-out before any code (a copied worker script, a one-off script, generated
        // output): the file is kept out of linting on purpose, which an ignore pattern would say better.
        if (directive.kind === 'eslint-disable' && directive.rules.length === 0 && isLeading(node)) return;
        const row = node.startPosition.row;
        // A disable of a line that holds no code disables nothing.
        if (directive.kind === 'eslint-disable-next-line' && !holdsCode(lines[node.endPosition.row + 1])) return;
        const blanket = directive.rules.length === 0;
        if (!blanket && (!requireReason || directive.reason !== '')) return;
        const scope =
          directive.kind === 'eslint-disable'
            ? 'every lint rule from here on'
            : directive.kind === 'eslint-disable-line'
              ? 'every lint rule on this line'
              : 'every lint rule on the next line';
        context.report({
          node,
          title: blanket ? `\`${directive.kind}\` without rule names` : `\`${directive.kind}\` without a reason`,
          description: blanket
            ? `${context.file.path}:${row + 1} turns off ${scope}${directive.reason ? ` (${directive.reason})` : ''}, not only the rule that was in the way.`
            : `${context.file.path}:${row + 1} disables ${directive.rules.join(', ')} without a \`-- reason\`.`,
          severity: blanket ? 'low' : 'info',
          data: { directive: directive.kind, blanket },
        });
      },
    };
  },
});
