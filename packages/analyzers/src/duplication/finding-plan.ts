// What to report of the located clones: one finding per copy after the first, never two for one
// region. A copy inside a region already reported (the shorter, more widely shared part of a
// longer clone) adds its other copies to that finding instead, so every relation is still named.
import type { Fragment, LocatedClone } from './clone-fragments.js';
import type { FileTokens } from './token-streams.js';

export interface PlannedFinding {
  clone: LocatedClone;
  /** The copy the finding is anchored at. */
  fragment: Fragment;
  /** The first copy, which the finding points to. */
  original: Fragment;
  /**
   * Shorter clones with a copy (`inside`) that lies inside `fragment`: their other copies are where
   * parts of it are repeated too. Listed only for findings that are described (`otherPlaces`):
   * a heavily repeated block would make this quadratic in its copies for every finding.
   */
  contained: Array<{ clone: LocatedClone; inside: Fragment }>;
}

function contains(outer: Fragment, inner: Fragment): boolean {
  return outer.lineStart <= inner.lineStart && inner.lineEnd <= outer.lineEnd;
}

function overlaps(a: Fragment, b: Fragment): boolean {
  return a.file === b.file && a.lineStart <= b.lineEnd && b.lineStart <= a.lineEnd;
}

function byPath(a: Fragment, b: Fragment): number {
  const pa = a.file.summary.path;
  const pb = b.file.summary.path;
  return pa < pb ? -1 : pa > pb ? 1 : a.start - b.start;
}

/** The first finding whose region holds the fragment's. */
function containerOf(findings: readonly PlannedFinding[], fragment: Fragment): PlannedFinding | undefined {
  for (let i = 0; i < findings.length; i++) if (contains(findings[i].fragment, fragment)) return findings[i];
  return undefined;
}

/** Largest clones first, so that a region is reported with its longest clone. */
export function planFindings(clones: readonly LocatedClone[]): PlannedFinding[] {
  const ordered = [...clones].sort((a, b) => b.tokens - a.tokens || byPath(a.fragments[0], b.fragments[0]));
  const reported = new Map<FileTokens, PlannedFinding[]>();
  const planned: PlannedFinding[] = [];
  // Index loops, not destructuring and closures: this visits every clone of the repository, on a
  // derived run too, where it runs once per process before V8 optimises it.
  for (const clone of ordered) {
    const { fragments } = clone;
    const original = fragments[0];
    for (let c = 1; c < fragments.length; c++) {
      const fragment = fragments[c];
      let inFile = reported.get(fragment.file);
      if (!inFile) reported.set(fragment.file, (inFile = []));
      const container = containerOf(inFile, fragment);
      if (container) {
        container.contained.push({ clone, inside: fragment });
        continue;
      }
      const finding: PlannedFinding = { clone, fragment, original, contained: [] };
      inFile.push(finding);
      planned.push(finding);
    }
  }
  return planned;
}

/**
 * The other places a finding names: the copies of its clone, then the related copies that are
 * neither the finding's own region nor a place already named, in path order.
 */
export function otherPlaces(finding: PlannedFinding): { copies: Fragment[]; related: Fragment[] } {
  const copies = finding.clone.fragments.filter((f) => f !== finding.fragment);
  // The places named so far by file: a region nested in a widely copied block has hundreds of
  // candidates, each compared only with the named places of its own file.
  const named = new Map<FileTokens, Fragment[]>();
  const name = (fragment: Fragment): void => {
    const inFile = named.get(fragment.file);
    if (inFile) inFile.push(fragment);
    else named.set(fragment.file, [fragment]);
  };
  name(finding.fragment);
  for (const copy of copies) name(copy);
  const candidates: Fragment[] = [];
  for (const { clone, inside } of finding.contained) for (const f of clone.fragments) if (f !== inside) candidates.push(f);
  const related: Fragment[] = [];
  for (const candidate of candidates.sort(byPath)) {
    if (named.get(candidate.file)?.some((f) => overlaps(f, candidate))) continue;
    name(candidate);
    related.push(candidate);
  }
  return { copies, related };
}
