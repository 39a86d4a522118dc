// Scope: how each impact zone relates to the PR's stated intent (title, description, primary
// intent): primary, supporting, incidental or unrelated; unrelated zones are reported as scope
// drift with the rule's reason. Conservative
// on purpose: a zone the title or description names, one joined to the named code by an import
// path, or a small edit is never drift. Rules documented in pr/README.md ("Scope drift").
import { SCOPE_CLASSIFICATIONS, ZONE_RISKS, type ImpactZone, type ScopeDriftItem } from './result.js';
import type { CodeGraph } from '../graph/types.js';
import { CODE_INTENTS, groupZones, pathWords, toImpactZones, type PrIntent, type Zone, type ZoneInput, type ZoneScope } from './zones.js';

export interface StatedIntent {
  title: string;
  body: string;
  primaryIntent: PrIntent;
}

export type PrScopeInput = ZoneInput & StatedIntent;

const SCOPE_ORDER: readonly string[] = SCOPE_CLASSIFICATIONS;
const RISK_ORDER: readonly string[] = ZONE_RISKS;

/** A zone this small, adding and deleting no file and removing no export, is an incidental edit. */
export const INCIDENTAL_MAX_LINES = 6;

const STOP_WORDS = new Set(
  (
    'about after again also when with without from into onto that this then than them they their there these those what which while ' +
    'have has been were will would should could make makes made more most some such only other over under just very each every ' +
    'fix fixes fixed feat feature add adds added update updates updated remove removes removed change changes changed improve ' +
    'improves use uses using support supports handle handles allow allows instead case cases issue issues docs doc test tests ' +
    'refactor chore bump readme code file files wip minor small typo typos missing new old'
  ).split(' '),
);
const DOC_COMMENT_WORDS = /\b(jsdoc|tsdoc|docstrings?|doc[- ]comments?|comments?)\b/i;
const DEPENDENCY_WORDS = /\b(dependency|dependencies|deps?|upgrad\w*|bump\w*|lockfiles?|package-lock|npm|yarn|pnpm)\b/i;

interface Anchors {
  /** Words the title names as the PR's area: its conventional-commit scope, else its content words. */
  scope: string[];
  /** Every content word of the title and description: a zone they mention is never drift. */
  mentioned: Set<string>;
}

function words(text: string): string[] {
  const out: string[] = [];
  // Paths and identifiers in the text split like paths do: `src/billing/invoice.ts`, `refreshToken`.
  for (const token of text.split(/[^A-Za-z0-9_./@-]+/)) {
    for (const w of pathWords(token)) if (w.length >= 3 && !STOP_WORDS.has(w) && !/^\d+$/.test(w)) out.push(w);
  }
  return out;
}

/**
 * Git's and the code hosts' merge-commit subjects (`Merge pull request #12 from acme/next`, `Merge
 * branch 'next' into main`, `Merge remote-tracking branch 'origin/x'`): they name branches, not
 * the change.
 */
const MERGE_SUBJECT = /^\s*Merge (?:pull request #\d+ from \S+|(?:remote-tracking )?branch(?:es)? .*|(?:tag|commit) .*|[0-9a-f]{7,40} into .*)\s*$/i;

/** The title a merge commit stands for: GitHub puts the PR's own title on the body's first line. */
export function statedTitle(title: string, body: string): { title: string; body: string } {
  if (!MERGE_SUBJECT.test(title)) return { title, body };
  const [first = '', ...rest] = body.trim().split('\n');
  return { title: first.trim(), body: rest.join('\n') };
}

export function anchorsOf(rawTitle: string, rawBody: string): Anchors {
  const { title, body } = statedTitle(rawTitle, rawBody);
  const conventional = /^\s*[a-z]+(?:\(([^)]*)\))?!?:\s*(.*)$/i.exec(title);
  const scopeText = conventional?.[1];
  const scope = scopeText ? words(scopeText.replace(/[,|]/g, ' ')) : words(conventional?.[2] ?? title).filter((w) => w.length >= 4);
  return { scope: [...new Set(scope)], mentioned: new Set([...words(title), ...words(body)]) };
}

function matches(word: string, zoneWords: ReadonlySet<string>): boolean {
  if (zoneWords.has(word)) return true;
  if (word.length < 4) return false;
  // `auth` names `authentication`, `invoice` names `invoices`.
  for (const z of zoneWords) if (z.length >= 4 && (z.startsWith(word) || word.startsWith(z))) return true;
  return false;
}

const zoneWordsOf = (zone: Zone): Set<string> => new Set([...pathWords(zone.name), ...zone.files.flatMap((f) => pathWords(f.path))]);

function isSmall(zone: Zone): boolean {
  return zone.additions + zone.deletions <= INCIDENTAL_MAX_LINES && !zone.structural && !zone.symbols.some((s) => s.exported);
}

const size = (zone: Zone): string => `${zone.files.length} file${zone.files.length === 1 ? '' : 's'}, +${zone.additions}/-${zone.deletions}`;

/**
 * The modules an import of `names` from `file` really uses: the file, and through its re-exports
 * (`export { x } from`, `export * from`, followed for the names imported only) the modules that
 * define them. A barrel joins its importer to what it forwards, not to everything it re-exports.
 */
function providers(graph: CodeGraph, file: string, names: readonly string[], seen = new Set<string>()): string[] {
  const key = `${file}\0${names.join(',')}`;
  const module = graph.modules.get(file);
  if (!module || seen.has(key)) return [file];
  seen.add(key);
  const all = names.includes('*');
  const out = [file];
  const target = (specifier: string) => module.imports.find((edge) => edge.specifier === specifier && edge.to)?.to;
  for (const record of module.exports) {
    if (record.from === undefined || !(all || names.includes(record.name))) continue;
    const to = target(record.from);
    if (to) out.push(...providers(graph, to, [record.importedName ?? record.name], seen));
  }
  for (const edge of module.imports) if (edge.kind === 're-export-all' && edge.to) out.push(...providers(graph, edge.to, names, seen));
  return out;
}

/** What a module uses directly: its imports' targets and, through barrels, the modules defining what it imports. */
function usesOf(graph: CodeGraph, file: string): Set<string> {
  const out = new Set<string>();
  for (const edge of graph.modules.get(file)?.imports ?? []) {
    if (!edge.to || edge.resolution !== 'internal' || edge.kind === 're-export' || edge.kind === 're-export-all') continue;
    for (const path of providers(graph, edge.to, edge.names.length > 0 ? edge.names : ['*'])) out.add(path);
  }
  return out;
}

/**
 * Changed files joined to the anchored zones at head: one uses the other directly (an import, or
 * an import through a barrel of what the barrel forwards), either way, and so on through the PR's
 * own files. A path through unchanged modules is not followed: in a connected repository
 * everything reaches everything through a shared core.
 */
function connectedFiles(anchored: readonly Zone[], zones: readonly Zone[], graph: CodeGraph | undefined): Set<string> {
  const out = new Set<string>();
  if (!graph) return out;
  const changed = zones.flatMap((z) => z.files.map((f) => f.path)).filter((p) => graph.modules.has(p));
  const uses = new Map(changed.map((path) => [path, usesOf(graph, path)]));
  const queue = anchored.flatMap((z) => z.files.map((f) => f.path)).filter((p) => graph.modules.has(p));
  for (const path of queue) out.add(path);
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const path of changed) {
      if (out.has(path) || !(uses.get(at)?.has(path) || uses.get(path)?.has(at))) continue;
      out.add(path);
      queue.push(path);
    }
  }
  return out;
}

/** One scope per zone, in the zones' order (README "Scope drift" lists the rules). */
export function relateZones(zones: readonly Zone[], stated: StatedIntent, graph?: CodeGraph): ZoneScope[] {
  const intent = stated.primaryIntent;
  const anchors = anchorsOf(stated.title, stated.body);
  const stripped = statedTitle(stated.title, stated.body);
  const text = `${stripped.title}\n${stripped.body}`;
  const zoneWords = zones.map(zoneWordsOf);
  const isMentioned = (i: number) => [...anchors.mentioned].some((w) => matches(w, zoneWords[i]));
  const anchoredCode = zones.filter((z, i) => z.category === 'code' && anchors.scope.some((w) => matches(w, zoneWords[i])));
  const connected = anchoredCode.length > 0 ? connectedFiles(anchoredCode, zones, graph) : new Set<string>();
  const scopeText = anchors.scope.join(', ');

  return zones.map((zone, i): ZoneScope => {
    const c = zone.category;
    const mention = isMentioned(i);
    if (intent === 'docs') {
      if (c === 'docs') return { classification: 'primary', reason: 'documentation in a documentation PR' };
      if (c === 'config' || c === 'other') return { classification: 'supporting', reason: 'configuration or assets beside the documentation' };
      if (c === 'dependency') return unlessAllowed(zone, text, 'a documentation PR changes dependency manifests or lockfiles');
      if (DOC_COMMENT_WORDS.test(text)) return { classification: 'supporting', reason: 'the description mentions doc comments, which live in the code' };
      if (isSmall(zone)) return { classification: 'incidental', reason: `a small edit (${size(zone)})` };
      return { classification: 'unrelated', reason: `a documentation PR changes ${c === 'test' ? 'tests' : 'source code'} (${size(zone)})` };
    }
    if (intent === 'test') {
      if (c === 'test') return { classification: 'primary', reason: 'tests in a test PR' };
      if (c !== 'code') return { classification: 'supporting', reason: 'test tooling, configuration or documentation' };
      if (zone.files.some((f) => f.kind === 'test')) return { classification: 'supporting', reason: 'source changed together with the tests that import it' };
      if (isSmall(zone)) return { classification: 'incidental', reason: `a small edit to source (${size(zone)}), e.g. exposing it to tests` };
      if (mention) return { classification: 'supporting', reason: 'the title or description names it' };
      return { classification: 'unrelated', reason: `a test PR changes production code that none of its tests import (${size(zone)})` };
    }
    if (intent === 'dependency') {
      if (c === 'dependency') return { classification: 'primary', reason: 'dependency manifests in a dependency PR' };
      return { classification: 'supporting', reason: 'adapts the code, configuration or docs to the dependency change' };
    }
    if (intent === 'config') {
      if (c === 'config' || c === 'dependency') return { classification: 'primary', reason: 'configuration in a configuration PR' };
      return { classification: 'supporting', reason: 'follows the configuration change' };
    }
    if (!CODE_INTENTS.has(intent)) return { classification: 'primary', reason: `part of a ${intent} change, which has no narrower scope` };
    // feature, bugfix, refactor, performance, security
    if (c === 'dependency') {
      if (intent === 'refactor') return unlessAllowed(zone, text, 'a refactor should leave dependencies alone, yet manifests or lockfiles changed');
      return { classification: 'supporting', reason: 'dependency changes the code needs' };
    }
    if (c !== 'code') return { classification: 'supporting', reason: c === 'test' ? 'tests of the change' : `${c} accompanying the change` };
    if (anchoredCode.length === 0)
      return {
        classification: 'primary',
        reason: anchors.scope.length > 0 ? 'the title names no changed code zone, so every code zone carries it' : 'carries the change',
      };
    if (anchoredCode.includes(zone)) return { classification: 'primary', reason: `the title names it (${scopeText})` };
    if (zone.files.some((f) => connected.has(f.path)))
      return { classification: 'supporting', reason: `an import path joins it to ${anchoredCode.map((z) => z.name).join(', ')}` };
    if (mention) return { classification: 'supporting', reason: 'the description names it' };
    if (isSmall(zone)) return { classification: 'incidental', reason: `a small edit (${size(zone)}) outside ${scopeText}` };
    return {
      classification: 'unrelated',
      reason: `the title scopes the PR to ${scopeText}, but ${zone.name} is neither named nor joined to ${anchoredCode.map((z) => z.name).join(', ')} by any import path (${size(zone)})`,
    };
  });
}

function unlessAllowed(zone: Zone, text: string, reason: string): ZoneScope {
  if (DEPENDENCY_WORDS.test(text)) return { classification: 'supporting', reason: 'the title or description mentions the dependency change' };
  return { classification: 'unrelated', reason: `${reason} (${zone.files.map((f) => f.path).join(', ')})` };
}

/** Drift items: one per unrelated zone, with the rule's reason. */
export function driftItems(zones: readonly Zone[], scopes: readonly ZoneScope[], stated: StatedIntent): ScopeDriftItem[] {
  const items: ScopeDriftItem[] = [];
  zones.forEach((zone, i) => {
    if (scopes[i]?.classification !== 'unrelated') return;
    items.push({
      description: `${zone.name} is outside the PR's stated ${stated.primaryIntent} intent`,
      reason: capitalise(scopes[i].reason),
      files: zone.files.map((f) => f.path),
    });
  });
  return items;
}

/** The pipeline's one call: impact zones and scope drift from the same zones and rules. */
export function analyzePrScope(input: PrScopeInput): { impactZones: ImpactZone[]; scopeDrift: ScopeDriftItem[] } {
  const grouped = groupZones(input);
  const related = relateZones(grouped, input, input.graph);
  // Reading order: what carries the intent first, then by risk, then by size (groupZones' order).
  const order = grouped
    .map((zone, i) => ({ zone, scope: related[i], i }))
    .sort(
      (a, b) =>
        SCOPE_ORDER.indexOf(a.scope.classification) - SCOPE_ORDER.indexOf(b.scope.classification) ||
        RISK_ORDER.indexOf(b.zone.risk) - RISK_ORDER.indexOf(a.zone.risk) ||
        a.i - b.i,
    );
  const zones = order.map((o) => o.zone);
  const scopes = order.map((o) => o.scope);
  return { impactZones: toImpactZones(zones, scopes), scopeDrift: driftItems(zones, scopes, input) };
}

/** Scope drift alone (same computation as `analyzePrScope`). */
export function detectScopeDrift(input: PrScopeInput): ScopeDriftItem[] {
  return analyzePrScope(input).scopeDrift;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
