// Detects how the repository names functions, methods, classes, types and constants, and reports
// the names that break the dominant style.
import { compileSafeRegExp, safeRegExpProblem, type FileSummary, type SafeRegExp } from '@codehealth/engine/kit';
import { z } from 'zod';
import { conventionOptions, defineConventionRule, share, sourceSummaries, type ObservedPattern } from '../shared/convention-rule.js';
import { append, FileMemo } from '../shared/file-memo.js';
import { namingStylesOf, renameTo, styleName, type NamingStyle } from '../shared/naming-style.js';
import type { Observation } from '../shared/tally.js';
import { NAME_KINDS, NAMES_COLLECTOR_ID, type NameFacts, type NameKind } from './collector.js';

const FACTS_KEY = `consistency/${NAMES_COLLECTOR_ID}`;

const options = conventionOptions
  .extend({
    /**
     * Regular expressions; a name matching one is not observed at all. They come from the
     * repository's config, so they run in linear time: backreferences are refused.
     */
    ignore: z
      .array(
        z.string().superRefine((source, ctx) => {
          const problem = safeRegExpProblem(source);
          if (problem) ctx.addIssue({ code: 'custom', message: `must be a regular expression this rule can run: it ${problem}` });
        }),
      )
      .default([]),
  })
  .strict()
  .prefault({});

const LABELS: Record<NameKind, { pattern: string; noun: string; plural: string }> = {
  function: { pattern: 'function-naming', noun: 'Function', plural: 'function names' },
  method: { pattern: 'method-naming', noun: 'Method', plural: 'method names' },
  class: { pattern: 'class-naming', noun: 'Class', plural: 'class names' },
  type: { pattern: 'type-naming', noun: 'Type', plural: 'names of interfaces, type aliases and enums' },
  constant: { pattern: 'constant-naming', noun: 'Constant', plural: 'names of top-level constants with literal values' },
};
const KIND_OF_PATTERN = new Map(NAME_KINDS.map((kind) => [LABELS[kind].pattern, kind]));

const PASCAL_FUNCTION: NamingStyle[] = ['PascalCase', 'camelCase'];

/** Names of the module's functions and variables, which a type of the same name accompanies. */
function companionValues(summary: FileSummary, facts: NameFacts): Set<string> {
  const values = new Set<string>();
  for (const symbol of summary.module.symbols) if (symbol.kind === 'function' || symbol.kind === 'variable') values.add(symbol.name);
  for (const [name] of facts.function ?? []) values.add(name);
  for (const name of facts.valueNames ?? []) values.add(name);
  return values;
}

/** A file's observations per kind, in declaration order. */
type ObservedNames = Partial<Record<NameKind, Observation[]>>;

/** Keyed by the file's name facts; also depends on its path, its module (exports, symbols) and `ignore`. */
const observedNames = new FileMemo<NameFacts, ObservedNames>();

/**
 * `stylesByName` is shared by the files of a run: names repeat across files (`make`, `pipe`,
 * `Options`), so their styles are worked out once.
 */
function observeNames(summary: FileSummary, facts: NameFacts, ignore: readonly SafeRegExp[], stylesByName: Map<string, NamingStyle[]>): ObservedNames {
  const observed: ObservedNames = {};
  const exported = new Set<string>();
  for (const record of summary.module.exports) exported.add(record.name);
  // A type named after a value of its module (`type TypeId = typeof TypeId`, `interface optional`
  // next to `const optional`) is a companion: it takes the value's name, whatever its style.
  const values = facts.type?.length ? companionValues(summary, facts) : undefined;
  for (const kind of NAME_KINDS) {
    const names = facts[kind];
    if (!names) continue;
    const observations: Observation[] = (observed[kind] = []);
    for (const [name, line, qualified] of names) {
      if ((ignore.length > 0 && ignore.some((re) => re.test(name))) || (kind === 'type' && values!.has(name))) continue;
      let styles = stylesByName.get(name);
      if (!styles) stylesByName.set(name, (styles = namingStylesOf(name)));
      // PascalCase functions are a convention of their own: constructors written before classes, React
      // components, decorator factories (`Injectable()`), constructors of tagged unions (`Done()`).
      // An all-caps word is an acronym in PascalCase (`SK`, the combinator; `URL()`): the same convention.
      if (kind === 'function' && styles.includes('PascalCase') && styles.every((s) => s === 'PascalCase' || s === 'UPPER_SNAKE')) styles = PASCAL_FUNCTION;
      observations.push({
        path: summary.path,
        line,
        subject: name,
        values: styles,
        symbol: qualified,
        ...(exported.has(name) ? { detail: 'exported' } : {}),
      });
    }
  }
  return observed;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export const namingConvention = defineConventionRule({
  id: 'naming-convention',
  // Notes, not defects: see the README's measured precision.
  severity: 'info',
  description: 'Names of functions, methods, classes, types and constants that break the repository’s dominant naming style',
  confidence: 80,
  options,
  docs: {
    whyItMatters:
      'When most names follow one style, a name in another style makes readers stop and wonder whether it means something ' +
      'different (a constant, a class, generated code), makes search and auto-import less predictable, and suggests the code was ' +
      'written or pasted without review.',
    suggestedAction: 'Rename the declaration to the repository’s style with your editor’s rename refactoring, which also updates every reference.',
  },
  observe(context) {
    const ignoreKey = JSON.stringify(context.options.ignore);
    let ignore: SafeRegExp[] | undefined;
    let stylesByName: Map<string, NamingStyle[]> | undefined;
    const byKind = new Map<NameKind, Observation[]>(NAME_KINDS.map((kind) => [kind, []]));
    for (const summary of sourceSummaries(context.summaries)) {
      const facts = summary.facts[FACTS_KEY] as NameFacts | undefined;
      if (!facts) continue;
      // The patterns are compiled, and styles worked out, only when a file's names must be observed again.
      const observed = observedNames.get(facts, [summary.path, summary.module, ignoreKey], () =>
        observeNames(summary, facts, (ignore ??= context.options.ignore.map((source) => compileSafeRegExp(source))), (stylesByName ??= new Map())),
      );
      for (const kind of NAME_KINDS) if (observed[kind]) append(byKind.get(kind)!, observed[kind]);
    }
    return NAME_KINDS.map((kind): ObservedPattern => ({ name: LABELS[kind].pattern, observations: byKind.get(kind)! }));
  },
  describe(deviation, pattern) {
    const label = LABELS[KIND_OF_PATTERN.get(pattern.name)!];
    const style = styleName(deviation.values[0]);
    const dominant = pattern.dominantValue as NamingStyle;
    const renamed = renameTo(deviation.subject, dominant);
    const rename = renamed ? ` Rename it to ${renamed}.` : '';
    const api =
      deviation.detail === 'exported' ? ' It is exported: other modules or packages may use the old name, so keep a deprecated alias if it is public API.' : '';
    return {
      title: `${label.noun} ${deviation.subject} in ${fileName(deviation.path)} is ${style}, not ${dominant}`,
      description:
        `${deviation.subject} (${deviation.path}:${deviation.line}) is named ${style === 'mixed-style' ? 'in a mix of styles' : `in ${style}`}, while ${share(pattern)} of the ` +
        `${label.plural} in this repository are ${dominant}.${rename}${api}`,
      ...(renamed
        ? { suggestedAction: `Rename ${deviation.subject} to ${renamed} with your editor’s rename refactoring, which also updates every reference.${api}` }
        : {}),
    };
  },
});
