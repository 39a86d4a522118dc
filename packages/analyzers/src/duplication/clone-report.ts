// What a duplicated-code finding says: title, description, severity, confidence, the enclosing
// symbol and the numbers behind it, from one planned finding.
import type { FileSummary, RepositoryReportDescriptor } from '@codehealth/engine/kit';
import { identicalText, type Fragment } from './clone-fragments.js';
import { otherPlaces, type PlannedFinding } from './finding-plan.js';

const CONFIDENCE_IDENTICAL = 90;
const CONFIDENCE_RENAMED = 70;
/** Places a description names; heavily repeated code names the rest by count. */
const MAX_NAMED = 20;
/** Places a finding's data lists (its description names fewer): bounded, as a block may have 1000 copies. */
const MAX_LISTED = 100;

export type CloneType = 'type-1' | 'type-2';

/** The smallest function, method, class or declaration enclosing the whole range, if any. */
export function enclosingSymbol(summary: FileSummary, lineStart: number, lineEnd: number): string | undefined {
  let best: { name: string; size: number } | undefined;
  const consider = (raw: string, start: number, end: number): void => {
    if (start > lineStart || end < lineEnd || (best && end - start >= best.size)) return;
    // Methods keyed by strings (`'program:exit'() {}`) keep their quotes in the summary.
    const name = raw.replace(/(^|\.)['"]|['"]$/g, '$1');
    if (name && !name.includes('<')) best = { name, size: end - start };
  };
  for (const symbol of summary.module.symbols) {
    // The qualified name is built only for a symbol that encloses the range (a large file has thousands).
    if (symbol.lineStart > lineStart || symbol.lineEnd < lineEnd) continue;
    consider(symbol.container ? `${symbol.container}.${symbol.name}` : symbol.name, symbol.lineStart, symbol.lineEnd);
  }
  for (const fn of summary.functions) consider(fn.name, fn.lineStart, fn.lineEnd);
  return best?.name;
}

function place(fragment: Fragment, from: Fragment): string {
  const lines = `${fragment.lineStart}-${fragment.lineEnd}`;
  return fragment.file === from.file ? `lines ${lines} of this file` : `${fragment.file.summary.path}:${lines}`;
}

function locationOf(fragment: Fragment): string {
  return `${fragment.file.summary.path}:${fragment.lineStart}-${fragment.lineEnd}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The first `max` places, then how many more there are. */
function listOf(fragments: readonly Fragment[], max: number): string {
  const named = fragments.slice(0, max).map(locationOf).join(', ');
  return fragments.length > max ? `${named} and ${fragments.length - max} more` : named;
}

/**
 * With `exactTokens` (the clone was found on exact token hashes, as in every mode but `weak`) its
 * copies are token for token identical by construction: the type is known without decoding files.
 */
export function describeFinding(planned: PlannedFinding, exactTokens = false): RepositoryReportDescriptor {
  const { clone, fragment, original } = planned;
  const cloneType: CloneType = exactTokens || identicalText(fragment, original) ? 'type-1' : 'type-2';
  const path = fragment.file.summary.path;
  const symbol = enclosingSymbol(fragment.file.summary, fragment.lineStart, fragment.lineEnd);
  const where = symbol ?? path.split('/').pop()!;
  const { copies: others, related } = otherPlaces(planned);
  const more = others.length > 1 ? ` and ${plural(others.length - 1, 'other place')}` : '';
  const kind = cloneType === 'type-1' ? 'Duplicated' : 'Near-duplicate';
  const title = `${kind} block of ${plural(fragment.codeLines, 'line')} in ${where}, also at ${place(original, fragment)}${more}`;

  const how = cloneType === 'type-1' ? 'token for token, layout and comments aside' : 'with only names or literal values changed (a type-2 clone)';
  const parts = related.length === 0 ? '' : ` Parts of it are repeated in ${plural(related.length, 'more place')}: ${listOf(related, MAX_NAMED)}.`;
  const description =
    `Lines ${fragment.lineStart}-${fragment.lineEnd} of ${path} (${plural(fragment.codeLines, 'line')} of code, ${clone.tokens} tokens) ` +
    `repeat lines ${original.lineStart}-${original.lineEnd} of ${original.file.summary.path} ${how}. ` +
    `The block exists ${clone.fragments.length} times: ${listOf(clone.fragments, MAX_NAMED)}.${parts}`;

  return {
    filePath: path,
    lineStart: fragment.lineStart,
    lineEnd: fragment.lineEnd,
    title,
    description,
    // Notes by default (issue 17): reviewers agreed with 26 of 35 labelled clones — the rest are deliberate
    // copies (mini vs classic schemas, locale templates); the duplication index grades the category.
    severity: 'info',
    confidence: cloneType === 'type-1' ? CONFIDENCE_IDENTICAL : CONFIDENCE_RENAMED,
    ...(symbol ? { symbol } : {}),
    data: {
      tokens: clone.tokens,
      lines: fragment.codeLines,
      copies: clone.fragments.length,
      cloneType,
      originalPath: original.file.summary.path,
      originalLineStart: original.lineStart,
      originalLineEnd: original.lineEnd,
      locations: others.slice(0, MAX_LISTED).map(locationOf).join(', '),
      ...(related.length > 0 ? { relatedLocations: related.slice(0, MAX_LISTED).map(locationOf).join(', '), related: related.length } : {}),
    },
  };
}
