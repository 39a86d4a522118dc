// Finds TODO/FIXME/HACK/XXX markers in comments during the walk, for the debt-marker rule.
import type { Collector, SyntaxNode } from '@codehealth/engine/kit';

export const DEBT_MARKERS = ['TODO', 'FIXME', 'HACK', 'XXX'] as const;
export type DebtMarker = (typeof DEBT_MARKERS)[number];
export const MARKERS_COLLECTOR_ID = 'debt-markers';

/** `[marker, line, text after the marker]`; tuples keep the cached facts small. */
export type MarkerSample = [marker: DebtMarker, line: number, text: string];

const MAX_TEXT = 160;
// At the start of a comment line: the word in upper case, in any case when a colon follows
// (`todo: x`), or the JSDoc `@todo` tag. "the TODO list" in prose is not a marker.
const UPPER = /^(TODO|FIXME|HACK|XXX)(?=$|[\s:(!-])/;
const ANY_CASE = /^(todo|fixme|hack|xxx)(?=\s*(?:\([^)]*\))?\s*:)/i;
const JSDOC = /^@(todo)\b/i;
const LINE_PREFIX = /^\s*(?:\/\*+|\/\/+!?|\*+(?!\/))?\s*/;
// `(owner)`, then `:`, `!` or `-` between the marker and its text.
const SEPARATOR = /^\s*(?:\([^)]*\))?\s*[:!-]?\s*/;

const ANY_MARKER = /todo|fixme|hack|xxx/i;

function markersOf(source: string, comment: SyntaxNode, out: MarkerSample[]): void {
  // Most comments hold no marker: test the text once before splitting it into lines.
  const text = source.slice(comment.startIndex, comment.endIndex);
  if (!ANY_MARKER.test(text)) return;
  text.split('\n').forEach((raw, index) => {
    const line = raw
      .replace(LINE_PREFIX, '')
      .replace(/\*+\/\s*$/, '')
      .trimEnd();
    const match = UPPER.exec(line) ?? ANY_CASE.exec(line) ?? JSDOC.exec(line);
    if (!match) return;
    const rest = line.slice(match[0].length).replace(SEPARATOR, '');
    out.push([match[1].toUpperCase() as DebtMarker, comment.startPosition.row + 1 + index, rest.slice(0, MAX_TEXT)]);
  });
}

export const markersCollector: Collector<MarkerSample[]> = {
  id: MARKERS_COLLECTOR_ID,
  create({ source }) {
    const markers: MarkerSample[] = [];
    return {
      visitor: { comment: (node) => markersOf(source, node, markers) },
      result: () => markers,
    };
  },
};
