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

/** `user-profile.component.ts` → `user-profile`; `index.d.ts` → `index`. */
function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.indexOf('.', 1);
  return dot === -1 ? name : name.slice(0, dot);
}

/** Names a file may take from its main export (`Observable.ts`, `mergeMap.ts`): a convention of its own. */
function exportedNames(summary: FileSummary): Set<string> {
  const names = new Set<string>();
  for (const e of summary.module.exports) if (e.name !== 'default') names.add(e.name);
  for (const s of summary.module.symbols) if (s.exported) names.add(s.name);
  return names;
}

function observe(summary: FileSummary): Observation | undefined {
  const stem = stemOf(summary.path);
  if (!JUDGEABLE.test(stem)) return undefined;
  const values: NamingStyle[] = namingStylesOf(stem);
  if (values.length === 0) return undefined;
  // A file named exactly after what it exports follows that name's style, whatever the others do.
  if (values.length === 1 && (values[0] === 'camelCase' || values[0] === 'PascalCase') && exportedNames(summary).has(stem)) return undefined;
  return { path: summary.path, line: 1, subject: stem, values };
}

/** Keyed by the file's module facts (its exports and symbols); also depends on its path. Null: not observed. */
const observedFiles = new FileMemo<FileSummary['module'], Observation | null>();

const MIN_DIRECTORY_FILES = 5;
const DIRECTORY_CONVENTION = 'follows-directory';

const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/**
 * A directory may keep its own style (effect's public `src/Array.ts` next to `src/internal/array.ts`).
 * A file that follows the clear convention of its own directory (at least 5 judged files there, the
 * file's style at least `minConsistency`%) still counts against the repository's consistency, but is
 * not reported. Returns the observations in their order, those files marked on a copy: the others
 * are kept from run to run and must not change.
 */
function markDirectoryConventions(observations: readonly Observation[], minConsistency: number): Observation[] {
  const byDir = new Map<string, number[]>();
  observations.forEach((o, index) => {
    const dir = dirOf(o.path);
    const files = byDir.get(dir);
    if (files) files.push(index);
    else byDir.set(dir, [index]);
  });
  const marked = [...observations];
  for (const files of byDir.values()) {
    const judged = files.filter((index) => observations[index].values.length === 1);
    if (judged.length < MIN_DIRECTORY_FILES) continue;
    const counts = new Map<string, number>();
    for (const index of judged) {
      const value = observations[index].values[0];
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const follows = (value: string) => ((counts.get(value) ?? 0) / judged.length) * 100 >= minConsistency;
    // `HKT.ts` (an acronym: UPPER_SNAKE or PascalCase) follows a PascalCase directory too.
    for (const index of files) if (observations[index].values.some(follows)) marked[index] = { ...observations[index], detail: DIRECTORY_CONVENTION };
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
    for (const summary of sourceSummaries(context.summaries)) {
      const observation = observedFiles.get(summary.module, [summary.path], () => observe(summary) ?? null);
      if (observation) (JSX_LANGUAGES.has(summary.language) ? jsx : plain).push(observation);
    }
    // Component files (`.tsx`/`.jsx`) often follow their own style (PascalCase), so they are judged among themselves.
    return [
      { name: 'file-naming', observations: markDirectoryConventions(plain, context.options.minConsistency) },
      { name: 'jsx-file-naming', observations: markDirectoryConventions(jsx, context.options.minConsistency) },
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
