// Reports TODO/FIXME/HACK/XXX comments with their age from git blame: the older a marker, the
// more likely it was forgotten.
import { defineRule, type PreviousRun, type Severity } from '@codehealth/engine/kit';
import { z } from 'zod';
import { enclosingFunctionName } from '../../shared/enclosing-function.js';
import { blameFiles, type LineOrigin } from './blame.js';
import { DEBT_MARKERS, MARKERS_COLLECTOR_ID, type MarkerSample } from './collector.js';

const FACTS_KEY = `compliance/${MARKERS_COLLECTOR_ID}`;
const DAY_SECONDS = 24 * 60 * 60;
// Fixtures hold code planted for tests to read, markers included: not the repository's own debt.
const FIXTURES = /(?:^|\/)(?:__)?fixtures(?:__)?\//;

const options = z
  .object({
    markers: z
      .array(z.enum(DEBT_MARKERS))
      .min(1)
      .default([...DEBT_MARKERS]),
    includeTests: z.boolean().default(true),
    /** Older than this many days: `low`. */
    lowAfterDays: z.number().int().min(0).default(90),
    /** Older than this many days: `medium`. */
    mediumAfterDays: z.number().int().min(0).default(365),
    /** Ask git blame for ages; off, every marker is reported at `info` with an unknown age. */
    blame: z.boolean().default(true),
  })
  .strict()
  .refine((o) => o.mediumAfterDays >= o.lowAfterDays, { message: 'mediumAfterDays must be at least lowAfterDays' })
  .prefault({});

interface Marker {
  path: string;
  line: number;
  marker: string;
  text: string;
  symbol?: string;
}

/** The age for the title (`412 days old`) and the sentence for the description. */
function describeAge(origin: LineOrigin | undefined, days: number | undefined, shallow: boolean, blamed: boolean): { age?: string; when: string } {
  if (origin?.uncommitted) return { age: 'not committed yet', when: ' The line is not committed yet.' };
  if (!origin || days === undefined) {
    return { when: blamed ? ' Its age is unknown (git blame had no answer for it).' : ' Its age is unknown (no git history).' };
  }
  const date = new Date(origin.authorTime * 1000).toISOString().slice(0, 10);
  // The boundary commit of a shallow clone that is the assessed commit itself says nothing of the age.
  if (shallow && origin.boundary && days === 0) {
    return {
      age: 'older than the shallow clone',
      when: ` It comes from before the history of this shallow clone (${date}, commit ${origin.commit.slice(0, 8)}).`,
    };
  }
  const age = ageText(days, origin, shallow);
  return { age: `${age} old`, when: ` It was written ${age} before the assessed commit (${date}, by ${origin.author}, commit ${origin.commit.slice(0, 8)}).` };
}

/** In a shallow clone, a boundary commit stands for all the history cut off before it. */
function ageText(days: number, origin: LineOrigin, shallow: boolean): string {
  const age = days === 1 ? '1 day' : `${days} days`;
  return shallow && origin.boundary ? `at least ${age}` : age;
}

export const debtMarker = defineRule({
  kind: 'repository',
  meta: {
    id: 'debt-marker',
    description: 'TODO, FIXME, HACK and XXX comments, rated by their age from git blame',
    category: 'compliance',
    severity: 'info',
    options,
    confidence: 95,
    docs: {
      whyItMatters:
        'A TODO or FIXME is debt written down: known missing work, a known bug or a shortcut. Young markers are plans; markers ' +
        'that survive for months are forgotten promises, and the code around them is trusted as if they were not there.',
      suggestedAction:
        'Do the work and delete the marker, or move it to the issue tracker (and reference the issue in the comment) so it is ' +
        'planned and visible; delete markers that no longer apply.',
    },
  },
  async analyze(context) {
    const { markers: wanted, includeTests, lowAfterDays, mediumAfterDays, blame } = context.options;
    const kinds = new Set<string>(wanted);
    const found: Marker[] = [];
    for (const summary of context.summaries) {
      if (summary.skipped || (summary.kind === 'test' && !includeTests) || FIXTURES.test(summary.path)) continue;
      for (const [marker, line, text] of (summary.facts[FACTS_KEY] as MarkerSample[] | undefined) ?? []) {
        if (!kinds.has(marker)) continue;
        found.push({ path: summary.path, line, marker, text, symbol: enclosingFunctionName(summary.functions, line) });
      }
    }
    const byFile = new Map<string, number[]>();
    for (const m of found) byFile.set(m.path, [...(byFile.get(m.path) ?? []), m.line]);
    // A scoped run (a pull request's head) blames only the files whose findings it keeps.
    const scope = context.scope;
    const toBlame = scope ? new Map([...byFile].filter(([path]) => scope.has(path))) : byFile;
    const git = blame && toBlame.size > 0 ? await context.git() : undefined;
    const origins = new Map<string, Map<number, LineOrigin>>();
    if (git?.available) {
      // A run derived from an earlier one (a pull request's head) blames only the files that differ.
      const reused = reusedOrigins(context.previous, toBlame);
      const remaining = new Map([...toBlame].filter(([path]) => !reused.has(path)));
      context.progress(
        `Blaming ${found.length} debt markers in ${remaining.size} files${reused.size > 0 ? ` (${reused.size} unchanged files' ages kept from the base run)` : ''}`,
      );
      for (const [path, lines] of reused) origins.set(path, lines);
      for (const [path, lines] of await blameFiles(context.snapshot.root, remaining, context.signal)) origins.set(path, lines);
      if (context.saveState) context.saveState(saveOrigins(origins));
    }

    // Ages as of the assessed commit, not of the day the analysis runs: the same commit scores the same.
    const now = (git?.referenceTime ?? Date.now()) / 1000;
    let olderThanLow = 0;
    let olderThanMedium = 0;
    for (const m of found) {
      if (scope && !scope.has(m.path)) continue;
      const origin = origins.get(m.path)?.get(m.line);
      const days = origin && !origin.uncommitted ? Math.max(0, Math.floor((now - origin.authorTime) / DAY_SECONDS)) : undefined;
      const severity: Severity = days === undefined ? 'info' : days > mediumAfterDays ? 'medium' : days > lowAfterDays ? 'low' : 'info';
      if (days !== undefined && days > lowAfterDays) olderThanLow++;
      if (days !== undefined && days > mediumAfterDays) olderThanMedium++;
      const file = m.path.slice(m.path.lastIndexOf('/') + 1);
      const excerpt = m.text.length > 60 ? `${m.text.slice(0, 57)}...` : m.text;
      const { age, when } = describeAge(origin, days, git?.shallow === true, git?.available === true && blame);
      context.report({
        filePath: m.path,
        lineStart: m.line,
        title: `${m.marker} in ${file}${age ? ` (${age})` : ''}${excerpt ? `: ${excerpt}` : ''}`,
        description: `${m.marker} comment at ${m.path}:${m.line}${m.text ? `: "${m.text}"` : ''}.${when}`,
        severity,
        ...(m.symbol ? { symbol: m.symbol } : {}),
        data: { marker: m.marker, ...(days !== undefined ? { ageDays: days } : {}) },
      });
    }
    context.metric('debtMarkers', found.length);
    // Ages known for only the scope's markers are no count of the repository's.
    const counted = git?.available === true && !scope;
    context.metric('debtMarkersOlderThanLow', counted ? olderThanLow : null);
    context.metric('debtMarkersOlderThanMedium', counted ? olderThanMedium : null);
  },
});

/** What a run saves for the next one derived from it: each blamed file's line origins. */
interface SavedBlame {
  format: 1;
  /** [path, [line, authorTime, author, commit, boundary 0|1][]] */
  files: Array<[string, Array<[number, number, string, string, number]>]>;
}

export function saveOrigins(origins: ReadonlyMap<string, ReadonlyMap<number, LineOrigin>>): SavedBlame {
  const files: SavedBlame['files'] = [];
  for (const [path, lines] of origins) {
    // Uncommitted lines are no history (a recorded run is of a clean checkout; kept out anyway).
    const kept = [...lines]
      .filter(([, o]) => !o.uncommitted)
      .map(([line, o]): [number, number, string, string, number] => [line, o.authorTime, o.author, o.commit, o.boundary ? 1 : 0]);
    if (kept.length > 0) files.push([path, kept]);
  }
  return { format: 1, files };
}

/**
 * The saved origins of the files to blame that the earlier run blamed and that did not change
 * since: their lines, and the commits that wrote them, are the same. The state comes from disk:
 * anything malformed is ignored (the files are blamed again).
 */
export function reusedOrigins(previous: PreviousRun | undefined, toBlame: ReadonlyMap<string, readonly number[]>): Map<string, Map<number, LineOrigin>> {
  const reused = new Map<string, Map<number, LineOrigin>>();
  const state = previous?.state as Partial<SavedBlame> | undefined;
  if (!previous || !state || state.format !== 1 || !Array.isArray(state.files)) return reused;
  for (const entry of state.files) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) return new Map();
    const [path, lines] = entry;
    if (!toBlame.has(path) || previous.changedPaths.has(path)) continue;
    const origins = new Map<number, LineOrigin>();
    for (const line of lines) {
      if (!Array.isArray(line) || typeof line[0] !== 'number' || typeof line[1] !== 'number' || typeof line[2] !== 'string' || typeof line[3] !== 'string')
        return new Map();
      origins.set(line[0], { authorTime: line[1], author: line[2], commit: line[3], uncommitted: false, boundary: line[4] === 1 });
    }
    // Lines the earlier run did not blame (other markers asked for) are blamed again with the file.
    if (toBlame.get(path)!.every((line) => origins.has(line))) reused.set(path, origins);
  }
  return reused;
}
