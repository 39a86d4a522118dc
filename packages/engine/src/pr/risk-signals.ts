// Risk signals of a PR: facts a reviewer should know before merging, each a stable lead phrase
// (`public API change`, ...) followed by the evidence (files, symbols, counts). The lead phrases
// and thresholds are documented in pr/README.md ("Risk signals").
import type { ChangeCategory, ChangeFacts } from './change-facts.js';
import { isCosmeticOnly } from './cosmetic-hunks.js';
import type { PullRequestChange } from './diff.js';

export const RISK_SIGNALS = [
  'touches security-sensitive code',
  'database migration',
  'public API change',
  'large deletion',
  'no tests for changed source',
  'dependency change',
  'major version bump',
  'config/CI change',
  'generated files edited',
] as const;
export type RiskSignal = (typeof RISK_SIGNALS)[number];

/** Deleting this many lines in total is a large deletion… */
export const LARGE_DELETION_LINES = 1000;
/** …as is deleting at least this many when the PR removes twice as much as it adds. */
export const LARGE_NET_DELETION_LINES = 300;
/** A deleted source file of this many lines is a large deletion on its own. */
export const LARGE_FILE_DELETION_LINES = 200;

const list = (items: readonly string[], max = 5) => items.slice(0, max).join(', ') + (items.length > max ? ` and ${items.length - max} more` : '');

export function riskSignals(change: PullRequestChange, facts: ChangeFacts): string[] {
  const signals: string[] = [];
  const inCategory = (category: ChangeCategory) => [...facts.categoriesOf].filter(([, cs]) => cs.includes(category)).map(([path]) => path);

  if (facts.securityFiles.length > 0) signals.push(`touches security-sensitive code: ${list(facts.securityFiles)}`);
  const migrations = inCategory('migrations');
  if (migrations.length > 0) signals.push(`database migration: ${list(migrations)}`);

  const api = publicApiSignal(facts);
  if (api) signals.push(api);

  const deletedFiles = change.diff.files.filter((f) => f.status === 'deleted' && f.kind === 'source' && f.deletions >= LARGE_FILE_DELETION_LINES);
  if (
    facts.deletions >= LARGE_DELETION_LINES ||
    (facts.deletions >= LARGE_NET_DELETION_LINES && facts.deletions >= 2 * facts.additions) ||
    deletedFiles.length > 0
  ) {
    const files = deletedFiles.length
      ? `; deletes ${list(
          deletedFiles.map((f) => `${f.path} (${f.deletions} lines)`),
          3,
        )}`
      : '';
    signals.push(`large deletion: ${facts.deletions} lines removed, ${facts.additions} added${files}`);
  }

  // Source with new or changed lines but no test file touched anywhere in the PR.
  const testsTouched = change.diff.files.some((f) => f.kind === 'test' && f.status !== 'deleted');
  const untested = facts.reviewable.filter(
    (f) => f.kind === 'source' && f.status !== 'deleted' && f.additions > 0 && !isCosmeticOnly(f) && (facts.categoriesOf.get(f.path) ?? []).includes('source'),
  );
  if (!testsTouched && untested.length > 0 && !facts.structuralOnly) signals.push(`no tests for changed source: ${list(untested.map((f) => f.path))}`);

  const dependencyFiles = inCategory('dependencies');
  if (facts.dependencyChanges.length > 0 || dependencyFiles.length > 0) {
    const changes = facts.dependencyChanges.map((d) =>
      d.from && d.to ? `${d.name} ${d.from} -> ${d.to}` : d.to ? `adds ${d.name}@${d.to}` : `removes ${d.name}`,
    );
    signals.push(`dependency change: ${changes.length ? list(changes) : list(dependencyFiles)}`);
  }
  const majors = facts.dependencyChanges.filter((d) => isMajorBump(d.from, d.to));
  if (majors.length > 0) signals.push(`major version bump: ${list(majors.map((d) => `${d.name} ${d.from} -> ${d.to}`))}`);
  const config = [...inCategory('ci'), ...inCategory('config')];
  if (config.length > 0) signals.push(`config/CI change: ${list(config)}`);
  const generated = inCategory('generated');
  if (generated.length > 0) signals.push(`generated files edited: ${list(generated)}`);
  return signals;
}

/** `[major, minor]` of a plain version or range (`^1.2.3`, `~0.4`, `>=2`, `v3.0.0`, `npm:x@4.1.0`); undefined for tags, URLs, workspaces. */
function versionOf(range: string): [number, number] | undefined {
  const match = /^(?:npm:(?:@[^/]+\/)?[^@]+@)?\s*(?:[\^~]|>=?|=)?\s*v?(\d+)(?:\.(\d+|x|\*))?/.exec(range.trim());
  if (!match) return undefined;
  const minor = Number(match[2]);
  return [Number(match[1]), Number.isFinite(minor) ? minor : 0];
}

/**
 * A re-versioned dependency whose major version went up (semver: breaking changes allowed); under
 * 1.0 a minor step is one too (`0.4` -> `0.5`).
 */
export function isMajorBump(from: string | undefined, to: string | undefined): boolean {
  if (!from || !to) return false;
  const a = versionOf(from);
  const b = versionOf(to);
  if (!a || !b) return false;
  return b[0] > a[0] || (a[0] === 0 && b[0] === 0 && b[1] > a[1]);
}

/**
 * `public API change: removes X (file), changes Y (file)`, or undefined. `publicExports`
 * (public-api.ts: `file\0name` users can import) narrows it to the package's public surface once
 * head's graph is known; a removed export counts when its file is part of that surface.
 */
export function publicApiSignal(facts: Pick<ChangeFacts, 'exports'>, publicExports?: ReadonlySet<string>): string | undefined {
  const publicFiles = publicExports && new Set([...publicExports].map((key) => key.slice(0, key.indexOf('\0'))));
  const api = [
    ...facts.exports.removed.filter((ref) => !publicFiles || publicFiles.has(ref.file)).map((ref) => `removes ${ref.name} (${ref.file})`),
    ...facts.exports.changed.filter((ref) => !publicExports || publicExports.has(`${ref.file}\0${ref.name}`)).map((ref) => `changes ${ref.name} (${ref.file})`),
  ];
  return api.length > 0 ? `public API change: ${list(api)}` : undefined;
}

/** The signals with the public API change narrowed to the package's public surface (see publicApiSignal). */
export function withPublicSurface(signals: readonly string[], facts: Pick<ChangeFacts, 'exports'>, publicExports: ReadonlySet<string> | undefined): string[] {
  if (!publicExports) return [...signals];
  const narrowed = publicApiSignal(facts, publicExports);
  const at = signals.findIndex((s) => s.startsWith('public API change: '));
  if (at === -1) return [...signals];
  return [...signals.slice(0, at), ...(narrowed ? [narrowed] : []), ...signals.slice(at + 1)];
}
