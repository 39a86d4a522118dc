// Flags production files where explicit `any` is dense: one finding per file above a count and a
// density per 1,000 lines of code, listing where. Type-level idioms (constraints, defaults, the
// `extends` of a conditional type), `catch (e: any)` and lint-acknowledged uses are not counted.
import { defineRule, roleOfFile, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { createCodeLineCollector } from '../../shared/code-lines.js';
import { mergeVisitors } from '../../shared/visitors.js';
import { lintDirectiveOf } from '../shared/directives.js';

const DEFAULTS = { minCount: 5, perKloc: 20 };

const options = z
  .object({
    /** Fewest counted `any` in a file for a finding. */
    minCount: z.number().int().positive().default(DEFAULTS.minCount),
    /** Fewest counted `any` per 1,000 lines of code for a finding. */
    perKloc: z.number().positive().default(DEFAULTS.perKloc),
  })
  .strict()
  .default(DEFAULTS);

/**
 * Generics whose `any` arguments make a loose value type (`Record<string, any>`, `Promise<any>`).
 * Any other generic given `any` (`Query<any, any>`, `Middleware<S, any>`) names every instance of
 * itself: the way to say "some Query" where `unknown` would fail the generic's variance.
 */
const CONTAINERS = new Set([
  'Array', 'ReadonlyArray', 'Record', 'Promise', 'PromiseLike', 'Map', 'ReadonlyMap', 'WeakMap', 'Set', 'ReadonlySet',
  'WeakSet', 'Iterable', 'IterableIterator', 'AsyncIterable', 'AsyncIterableIterator', 'Iterator', 'Generator',
  'AsyncGenerator', 'Partial', 'Required', 'Readonly', 'Awaited', 'NonNullable',
]);

/** A file this many times over both thresholds (one line in ten at the defaults) is `low`, not `info`. */
const LOW_DENSITY_FACTOR = 5;
const LOW_COUNT_FACTOR = 4;

/** Lines listed in the description; the rest are counted. */
const LISTED = 8;
const NO_EXPLICIT_ANY = /(?:^|\/)no-explicit-any$/;

/**
 * Where `any` is the idiom rather than a hole: a type parameter's constraint or default
 * (`T extends any[]`, `<T = any>`), the tested type of a conditional type (`T extends (...a: any[]) => infer R`),
 * where `unknown` would reject what the code means to accept; an argument of a generic other than a
 * built-in container (`Query<any, any>`: any instance of Query); and a catch binding (`catch (e: any)`),
 * which only spells out what an untyped throw is.
 */
function isIdiomatic(node: SyntaxNode): boolean {
  if (node.parent?.type === 'type_arguments' && node.parent.parent?.type === 'generic_type') {
    const name = node.parent.parent.childForFieldName('name')?.text ?? '';
    if (!CONTAINERS.has(name)) return true;
  }
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'constraint':
      case 'default_type':
        return true;
      case 'conditional_type':
        if (parent.childForFieldName('right')?.id === child.id) return true;
        break;
      case 'catch_clause':
        return child.type === 'type_annotation';
      case 'statement_block':
      case 'class_body':
      case 'program':
        return false;
    }
  }
  return false;
}

function lineList(rows: number[]): string {
  const shown = rows.slice(0, LISTED).map((r) => r + 1).join(', ');
  return rows.length > LISTED ? `${shown} and ${rows.length - LISTED} more` : shown;
}

export const explicitAny = defineRule({
  kind: 'file',
  meta: {
    id: 'explicit-any',
    description: 'Production files dense with explicit `any` types',
    category: 'code_smell',
    severity: 'info',
    options,
    confidence: 80,
    languages: ['typescript', 'tsx'],
    docs: {
      whyItMatters:
        '`any` switches the type checker off for every value it touches, and spreads: what is read from an `any` is ' +
        '`any` too. A file dense with them is a file whose types no longer catch mistakes, however strict the project.',
      suggestedAction:
        'Type the values: `unknown` and a narrowing check for untrusted input, a generic for pass-through code, ' +
        'a precise type or interface otherwise. Where `any` is deliberate, say so with a named lint disable.',
    },
  },
  create(context) {
    // Tests, fixtures, examples, benchmarks, tooling, generated and vendored code: quiet (see README).
    if (roleOfFile(context.file) !== 'production') return {};
    const { minCount, perKloc } = context.options;
    const lines = createCodeLineCollector(context.source);
    const rows: number[] = [];
    const acknowledged = new Set<number>();
    let optedOut = false;
    return mergeVisitors(lines.visitor, {
      predefined_type(node) {
        if (node.text === 'any' && !isIdiomatic(node)) rows.push(node.startPosition.row);
      },
      comment(node) {
        const directive = lintDirectiveOf(node.text);
        if (!directive?.rules.some((rule) => NO_EXPLICIT_ANY.test(rule))) return;
        if (directive.kind === 'eslint-disable') optedOut = true;
        else acknowledged.add(directive.kind === 'eslint-disable-line' ? node.startPosition.row : node.endPosition.row + 1);
      },
      'program:exit': () => {
        if (optedOut) return;
        const counted = rows.filter((row) => !acknowledged.has(row));
        if (counted.length < minCount) return;
        const code = lines.codeLines().total;
        const density = (counted.length * 1000) / Math.max(code, 1);
        if (density < perKloc) return;
        const rounded = Math.round(density);
        // Dense `any` is usually a deliberate trade-off in well-kept code: a notice, scored only when extreme.
        const extreme = density >= perKloc * LOW_DENSITY_FACTOR && counted.length >= minCount * LOW_COUNT_FACTOR;
        context.report({
          lineStart: counted[0] + 1,
          title: `${counted.length} explicit \`any\` in ${code} lines of code (${rounded} per 1,000)`,
          description:
            `${context.file.path} uses \`any\` ${counted.length} times in ${code} lines of code, ${rounded} per 1,000 lines ` +
            `(reported from ${perKloc} per 1,000 and ${minCount} uses), at lines ${lineList(counted)}.`,
          severity: extreme ? 'low' : 'info',
          data: { count: counted.length, codeLines: code, perKloc: rounded },
        });
      },
    });
  },
});
