// Detects how the repository names its source files (kebab-case, camelCase, ...) and reports the
// files named in another style.
import type { FileSummary } from '@codehealth/engine/kit';
import { conventionOptions, defineConventionRule, share, sourceSummaries } from '../shared/convention-rule.js';
import { FileMemo } from '../shared/file-memo.js';
import { namingStylesOf, renameTo, styleName, type NamingStyle } from '../shared/naming-style.js';
import type { Observation } from '../shared/tally.js';

const options = conventionOptions.prefault({});

const JSX_LANGUAGES = new Set(['tsx', 'jsx']);
// Framework routing names (`[id].tsx`, `+page.ts`, `(group)`) and other punctuation are not a naming style.
const JUDGEABLE = /^[A-Za-z0-9_$-]+$/;
const NAMED_AFTER_EXPORT = 'named-after-export';
/** A BCP 47 language tag (`fr-CA`, `zh-Hant-TW`, `es-419`): its case is the standard's, not a naming style. */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_][A-Z][a-z]{3})?[-_](?:[A-Z]{2}|\d{3})$/;

/** `user-profile.component.ts` → `user-profile`; `index.d.ts` → `index`. */
function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.indexOf('.', 1);
  return dot === -1 ? name : name.slice(0, dot);
}

/**
 * Names a file may take from its main export (`Observable.ts`, `mergeMap.ts`): a convention of its
 * own. With a default export, a class or function the file declares counts too: CommonJS's
 * `module.exports = Seeder` (knex's `Seeder.js`) exports its class under no name of its own.
 */
function exportedNames(summary: FileSummary): Set<string> {
  const names = new Set<string>();
  let hasDefault = false;
  for (const e of summary.module.exports) {
    if (e.name === 'default') hasDefault = true;
    else names.add(e.name);
  }
  for (const s of summary.module.symbols) {
    if (s.exported || (hasDefault && (s.kind === 'class' || s.kind === 'function') && s.container === undefined)) names.add(s.name);
  }
  return names;
}

function observe(summary: FileSummary): Observation | undefined {
  const stem = stemOf(summary.path);
  if (!JUDGEABLE.test(stem) || LANGUAGE_TAG.test(stem)) return undefined;
  const values: NamingStyle[] = namingStylesOf(stem);
  if (values.length === 0) return undefined;
  // A file named exactly after what it exports follows that name's style, whatever the others do:
  // never judged, but evidence of its directory's and package's style (react-query's `useQuery.ts`).
  if (values.length === 1 && (values[0] === 'camelCase' || values[0] === 'PascalCase') && exportedNames(summary).has(stem)) {
    return { path: summary.path, line: 1, subject: stem, values, detail: NAMED_AFTER_EXPORT };
  }
  return { path: summary.path, line: 1, subject: stem, values };
}

/** Keyed by the file's module facts (its exports and symbols); also depends on its path. Null: not observed. */
const observedFiles = new FileMemo<FileSummary['module'], Observation | null>();

const MIN_DIRECTORY_FILES = 5;
const DIRECTORY_CONVENTION = 'follows-directory';

const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/** The workspace package a path belongs to: the deepest directory below the root holding a package.json ('' outside any). */
function packageScopes(files: ReadonlyArray<{ path: string }>): (path: string) => string {
  const roots = files
    .filter((f) => f.path.endsWith('/package.json') && !f.path.includes('node_modules/'))
    .map((f) => dirOf(f.path))
    .sort((a, b) => b.length - a.length);
  return (path) => roots.find((root) => path.startsWith(`${root}/`)) ?? '';
}

/**
 * A directory may keep its own style (effect's public `src/Array.ts` next to `src/internal/array.ts`),
 * and so may a workspace package (react-query's camelCase `useQuery.ts` in a monorepo whose Angular
 * package names files in kebab-case). A file that follows the clear convention of its own directory
 * or package (at least 5 judged files there, the file's style at least `minConsistency`%) still
 * counts against the repository's consistency, but is not reported. Returns the observations in
 * their order, those files marked on a copy: the others are kept from run to run and must not change.
 */
function markScopeConventions(
  observations: readonly Observation[],
  evidence: readonly Observation[],
  minConsistency: number,
  packageOf: (path: string) => string,
): Observation[] {
  const marked = [...observations];
  // Indexes past the observations are the evidence: files named after their export, counted, never marked.
  const all = [...observations, ...evidence];
  for (const scopeOf of [dirOf, packageOf]) {
    const byScope = new Map<string, number[]>();
    all.forEach((o, index) => {
      const scope = scopeOf(o.path);
      if (scope === '' && scopeOf === packageOf) return;
      const files = byScope.get(scope);
      if (files) files.push(index);
      else byScope.set(scope, [index]);
    });
    for (const files of byScope.values()) {
      const judged = files.filter((index) => all[index].values.length === 1);
      if (judged.length < MIN_DIRECTORY_FILES) continue;
      const counts = new Map<string, number>();
      for (const index of judged) {
        const value = all[index].values[0];
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      const follows = (value: string) => ((counts.get(value) ?? 0) / judged.length) * 100 >= minConsistency;
      // `HKT.ts` (an acronym: UPPER_SNAKE or PascalCase) follows a PascalCase directory too.
      for (const index of files) {
        if (index < observations.length && observations[index].values.some(follows)) marked[index] = { ...observations[index], detail: DIRECTORY_CONVENTION };
      }
    }
  }
  return marked;
}

export const fileNaming = defineConventionRule({
  id: 'file-naming',
  // Notes, not defects: see the README's measured precision.
  severity: 'info',
  description: 'Source files whose name breaks the repository’s dominant file-naming style',
  confidence: 75,
  options,
  docs: {
    whyItMatters:
      'File names are how people find and import code. When most files follow one style, a file in another style is harder ' +
      'to guess, breaks on case-insensitive file systems when two spellings meet, and makes import paths look arbitrary.',
    suggestedAction: 'Rename the file to the repository’s style (with `git mv`, so history follows) and update the imports that name it.',
  },
  observe(context) {
    const plain: Observation[] = [];
    const jsx: Observation[] = [];
    const plainEvidence: Observation[] = [];
    const jsxEvidence: Observation[] = [];
    for (const summary of sourceSummaries(context.summaries)) {
      const observation = observedFiles.get(summary.module, [summary.path], () => observe(summary) ?? null);
      if (!observation) continue;
      const isJsx = JSX_LANGUAGES.has(summary.language);
      if (observation.detail === NAMED_AFTER_EXPORT) (isJsx ? jsxEvidence : plainEvidence).push(observation);
      else (isJsx ? jsx : plain).push(observation);
    }
    const packageOf = packageScopes(context.snapshot.files);
    const { minConsistency } = context.options;
    // Component files (`.tsx`/`.jsx`) often follow their own style (PascalCase), so they are judged among themselves.
    return [
      { name: 'file-naming', observations: markScopeConventions(plain, plainEvidence, minConsistency, packageOf) },
      { name: 'jsx-file-naming', observations: markScopeConventions(jsx, jsxEvidence, minConsistency, packageOf) },
    ];
  },
  describe(deviation, pattern) {
    if (deviation.detail === DIRECTORY_CONVENTION) return undefined;
    const file = deviation.path.slice(deviation.path.lastIndexOf('/') + 1);
    const style = styleName(deviation.values[0]);
    const dominant = pattern.dominantValue as NamingStyle;
    const renamed = renameTo(deviation.subject, dominant);
    const target = renamed ? `${renamed}${file.slice(deviation.subject.length)}` : undefined;
    const kind = pattern.name === 'jsx-file-naming' ? 'JSX/TSX source files' : 'source files';
    return {
      title: `File name ${file} is ${style}, not ${dominant}`,
      description:
        `${deviation.path} is named ${style === 'mixed-style' ? 'in a mix of styles' : `in ${style}`}, while ${share(pattern)} of the ${kind} in this repository are named in ${dominant}` +
        `${target ? `; following it, the file would be ${target}` : ''}.`,
      ...(target ? { suggestedAction: `Rename the file to ${target} with \`git mv\` and update the imports that name it.` } : {}),
    };
  },
});
