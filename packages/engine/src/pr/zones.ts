// Impact zones: a PR's changed files grouped by workspace package (else by top-level directory,
// one level deeper under src/, lib/, packages/, test/ and the like), merged where a changed file
// imports another. Each zone gets its own intent from its files, a risk from documented points
// (size, exported API, importers, security-sensitive paths, churn, tests, CI) and a summary of
// facts. How a zone relates to the PR's stated intent is decided in scope-drift.ts.
// Rules documented in pr/README.md ("Impact zones").
import type { ImpactZone, PR_INTENTS, SCOPE_CLASSIFICATIONS, ZONE_RISKS } from './result.js';
import type { ReadJson } from '../graph/file-probe.js';
import type { CodeGraph } from '../graph/types.js';
import { findWorkspacePackages } from '../graph/workspace-packages.js';
import type { FileChurn } from '../snapshot/types.js';
import { isCosmeticOnly } from './cosmetic-hunks.js';
import type { ChangedFile } from './types.js';

export type PrIntent = (typeof PR_INTENTS)[number];
export type ZoneRisk = (typeof ZONE_RISKS)[number];
export type ScopeClassification = (typeof SCOPE_CLASSIFICATIONS)[number];
export type ZoneCategory = 'code' | 'test' | 'docs' | 'config' | 'dependency' | 'other';

export interface PackageRoot {
  name: string;
  /** Repository-relative directory, no trailing slash; the root package (`''`) is ignored. */
  dir: string;
}

/** The repository's workspace packages (npm/yarn `workspaces` of the root package.json), root package left out. */
export function workspacePackageRoots(files: Iterable<string>, readJson: ReadJson): PackageRoot[] {
  return [...findWorkspacePackages(files, readJson).values()].filter((p) => p.dir !== '').map((p) => ({ name: p.name, dir: p.dir }));
}

export interface ZoneInput {
  files: readonly ChangedFile[];
  /** Code graph at head: merges zones and counts each zone's importers. */
  graph?: CodeGraph;
  /** Workspace packages (e.g. from `findWorkspacePackages`). */
  packages?: readonly PackageRoot[];
  /** Per-file git history at head (`AssessmentResult.git.files`). */
  churn?: ReadonlyMap<string, FileChurn>;
  /** The PR's primary intent: code zones whose files do not say otherwise carry it. */
  primaryIntent?: PrIntent;
}

export interface Zone {
  name: string;
  category: ZoneCategory;
  files: ChangedFile[];
  additions: number;
  deletions: number;
  intent: PrIntent;
  risk: ZoneRisk;
  riskReasons: string[];
  /** Modules outside the zone importing one of its files at head. */
  importers: number;
  /** Touched symbols, innermost names, exported ones first. */
  symbols: Array<{ name: string; exported: boolean }>;
  /** Added, deleted or removed-export changes make a zone more than a small edit. */
  structural: boolean;
}

export interface ZoneScope {
  classification: ScopeClassification;
  reason: string;
}

export const CODE_INTENTS: ReadonlySet<PrIntent> = new Set(['feature', 'bugfix', 'refactor', 'performance', 'security']);
const CONTAINER_DIRS = new Set([
  'src',
  'lib',
  'source',
  'app',
  'apps',
  'packages',
  'modules',
  'libs',
  'services',
  'test',
  'tests',
  '__tests__',
  'spec',
  'internal',
]);
const LOCKFILE = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?)$/;
const MANIFEST = /(^|\/)package\.json$/;
const CI_PATH = /(^|\/)(\.github\/workflows\/|\.gitlab-ci\.yml$|\.circleci\/|Jenkinsfile$|Dockerfile$|azure-pipelines\.yml$)/;
const SENSITIVE =
  /^(auth|authn|authz|authentication|authorization|login|logout|oauth|jwt|saml|sso|password|passwords|passwd|credential|credentials|secret|secrets|token|tokens|session|sessions|crypto|cipher|encrypt|encryption|decrypt|permission|permissions|acl|rbac|security|sanitize|payment|payments|billing)$/;
const MIGRATION = /^(migration|migrations|migrate)$/;

/** Lower-case words of a path: segments, split at `-`, `_`, `.` and camelCase humps. */
export function pathWords(path: string): string[] {
  const words = new Set<string>();
  for (const segment of path.split('/')) {
    const stem = segment.replace(/\.[^.]*$/, '');
    words.add(stem.toLowerCase());
    for (const w of stem.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s\-_.@]+/)) if (w) words.add(w.toLowerCase());
  }
  return [...words].filter((w) => w !== '');
}

export function categoryOf(file: ChangedFile): ZoneCategory {
  if (LOCKFILE.test(file.path) || MANIFEST.test(file.path)) return 'dependency';
  if (file.kind === 'source') return 'code';
  if (file.kind === 'test') return 'test';
  if (file.kind === 'documentation' || file.kind === 'docs') return 'docs';
  if (file.kind === 'config') return 'config';
  return 'other';
}

interface Group {
  key: string;
  name: string;
  package: boolean;
}

function groupOf(file: ChangedFile, packages: readonly PackageRoot[]): Group {
  let owner: PackageRoot | undefined;
  for (const p of packages) if (p.dir !== '' && file.path.startsWith(`${p.dir}/`) && (!owner || p.dir.length > owner.dir.length)) owner = p;
  if (owner) return { key: `package:${owner.dir}`, name: owner.name, package: true };
  const segments = file.path.split('/');
  if (segments.length === 1) {
    const category = categoryOf(file);
    return { key: `root:${category}`, name: category === 'code' ? '(root)' : `(root ${category})`, package: false };
  }
  const dir = CONTAINER_DIRS.has(segments[0]) && segments.length > 2 ? `${segments[0]}/${segments[1]}` : segments[0];
  return { key: dir, name: dir, package: false };
}

const SPLIT_OFF = new Map<ZoneCategory, string>([
  ['docs', 'docs'],
  ['dependency', 'dependencies'],
]);

/** Union-find over groups; two workspace packages never merge (a package boundary is deliberate). */
class GroupUnion {
  private readonly parent = new Map<string, string>();
  private readonly packages = new Map<string, Set<string>>();

  add(group: Group): void {
    if (this.parent.has(group.key)) return;
    this.parent.set(group.key, group.key);
    this.packages.set(group.key, new Set(group.package ? [group.key] : []));
  }

  find(key: string): string {
    let root = key;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(key, root);
    return root;
  }

  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra === rb) return;
    const merged = new Set([...this.packages.get(ra)!, ...this.packages.get(rb)!]);
    if (merged.size > 1) return;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    this.parent.set(child, root);
    this.packages.set(root, merged);
  }
}

export function groupZones(input: ZoneInput): Zone[] {
  const packages = input.packages ?? [];
  const union = new GroupUnion();
  const groupOfPath = new Map<string, Group>();
  const base = new Map(input.files.map((file) => [file.path, groupOf(file, packages)]));
  const mixed = new Set<string>();
  for (const file of input.files) if (!SPLIT_OFF.has(categoryOf(file))) mixed.add(base.get(file.path)!.key);
  for (const file of input.files) {
    let group = base.get(file.path)!;
    // Documentation and dependency manifests of a group with code are zones of their own: they
    // are different kinds of change (a docs PR's README is not its package's code).
    const category = categoryOf(file);
    if (SPLIT_OFF.has(category) && mixed.has(group.key))
      group = { key: `${group.key}#${category}`, name: `${group.name} (${SPLIT_OFF.get(category)})`, package: false };
    groupOfPath.set(file.path, group);
    union.add(group);
  }
  // Sorted edges keep the merge order, and so the result, deterministic.
  const changed = [...groupOfPath.keys()].sort();
  for (const path of changed) {
    for (const edge of input.graph?.modules.get(path)?.imports ?? []) {
      const target = edge.to === undefined ? undefined : groupOfPath.get(edge.to);
      if (target && edge.to !== path) union.union(groupOfPath.get(path)!.key, target.key);
    }
  }
  const members = new Map<string, ChangedFile[]>();
  for (const file of input.files) {
    const root = union.find(groupOfPath.get(file.path)!.key);
    const list = members.get(root);
    if (list) list.push(file);
    else members.set(root, [file]);
  }
  const testUsers = testedPaths(input);
  return [...members.values()]
    .map((files) =>
      buildZone(
        files.sort((a, b) => a.path.localeCompare(b.path)),
        groupOfPath,
        input,
        testUsers,
      ),
    )
    .sort((a, b) => b.additions + b.deletions - (a.additions + a.deletions) || a.name.localeCompare(b.name));
}

/**
 * Files a test file of the PR reaches at head, through any chain of imports: a barrel
 * (`src/index.ts` re-exporting `./math.js`), a tsconfig path alias or the package's own name (the
 * graph resolves both to the file). Their zones count as tested.
 */
function testedPaths(input: ZoneInput): Set<string> {
  const tests = input.files.filter((file) => file.kind === 'test' && input.graph?.modules.has(file.path)).map((file) => file.path);
  if (!input.graph || tests.length === 0) return new Set();
  return new Set(input.graph.reachableFrom(tests));
}

function buildZone(files: ChangedFile[], groupOfPath: Map<string, Group>, input: ZoneInput, tested: Set<string>): Zone {
  const lines = new Map<string, number>();
  for (const f of files) {
    const name = groupOfPath.get(f.path)!.name;
    lines.set(name, (lines.get(name) ?? 0) + f.additions + f.deletions + 1);
  }
  const names = [...lines.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([n]) => n);
  const name = names.length > 3 ? `${names.slice(0, 3).join(' + ')} (+${names.length - 3} more)` : names.join(' + ');
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  const category = zoneCategory(files);
  const symbols = touchedSymbols(files);
  const paths = new Set(files.map((f) => f.path));
  const outside = new Set<string>();
  for (const path of paths) for (const importer of input.graph?.modules.get(path)?.importedBy ?? []) if (!paths.has(importer)) outside.add(importer);
  const removedExports = files.some((f) =>
    f.symbols.some(
      (s) => s.exported && s.side === 'base' && (s.change ? s.change === 'removed' : !f.symbols.some((h) => h.side === 'head' && h.name === s.name)),
    ),
  );
  const structural = removedExports || files.some((f) => f.status === 'added' || f.status === 'deleted');
  const zone: Zone = {
    name,
    category,
    files,
    additions,
    deletions,
    intent: 'unknown',
    risk: 'low',
    riskReasons: [],
    importers: outside.size,
    symbols,
    structural,
  };
  zone.intent = zoneIntent(zone, input.primaryIntent);
  const hasTests = files.some((f) => f.kind === 'test') || files.some((f) => tested.has(f.path));
  const [risk, reasons] = rateRisk(zone, removedExports, hasTests, input.churn);
  zone.risk = risk;
  zone.riskReasons = reasons;
  return zone;
}

function zoneCategory(files: readonly ChangedFile[]): ZoneCategory {
  // The most consequential kind names the zone: code with its README is code.
  const categories = new Set(files.map(categoryOf));
  return (['code', 'test', 'dependency', 'config', 'docs'] as const).find((c) => categories.has(c)) ?? 'other';
}

function touchedSymbols(files: readonly ChangedFile[]): Zone['symbols'] {
  const out = new Map<string, boolean>();
  for (const f of files) {
    for (const s of f.symbols) {
      const inner = !f.symbols.some(
        (t) => t !== s && t.side === s.side && t.lineStart >= s.lineStart && t.lineEnd <= s.lineEnd && t.lineEnd - t.lineStart < s.lineEnd - s.lineStart,
      );
      if (inner || s.exported) out.set(s.name, (out.get(s.name) ?? false) || s.exported);
    }
  }
  return [...out.entries()]
    .map(([name, exported]) => ({ name, exported }))
    .sort((a, b) => Number(b.exported) - Number(a.exported) || a.name.localeCompare(b.name));
}

/** The zone's own intent (README "Impact zones" lists the rules in this order). */
function zoneIntent(zone: Zone, primary: PrIntent | undefined): PrIntent {
  if (zone.category === 'docs') return 'docs';
  if (zone.category === 'test') return 'test';
  if (zone.category === 'dependency') return zone.files.some((f) => LOCKFILE.test(f.path)) ? 'dependency' : 'config';
  if (zone.category === 'config') return 'config';
  if (zone.category === 'other') return 'chore';
  const code = zone.files.filter((f) => categoryOf(f) === 'code');
  if (code.every((f) => f.status === 'renamed' && f.additions + f.deletions <= 20)) return 'refactor';
  if (primary && CODE_INTENTS.has(primary)) return primary;
  if (code.every((f) => f.status === 'added')) return 'feature';
  if (code.every((f) => f.additions === 0)) return 'refactor';
  // An exported symbol with a head side and no base side is new API.
  const newExports = code.some((f) =>
    f.symbols.some(
      (s) => s.exported && s.side === 'head' && (s.change ? s.change === 'added' : !f.symbols.some((b) => b.side === 'base' && b.name === s.name)),
    ),
  );
  return newExports ? 'feature' : 'chore';
}

const HOT_COMMITS_90D = 10;
const HOT_LINES_30D = 300;

/** Points per rule; 0-1 low, 2-3 medium, 4-5 high, 6+ critical. */
function rateRisk(zone: Zone, removedExports: boolean, hasTests: boolean, churn: ReadonlyMap<string, FileChurn> | undefined): [ZoneRisk, string[]] {
  const reasons: string[] = [];
  let points = 0;
  const add = (n: number, reason: string) => {
    points += n;
    reasons.push(reason);
  };
  const lines = zone.additions + zone.deletions;
  if (lines >= 500) add(2, `large change (${lines} lines)`);
  else if (lines >= 150) add(1, `sizeable change (${lines} lines)`);
  if (zone.files.length >= 15) add(1, `${zone.files.length} files`);
  const exported = zone.symbols.filter((s) => s.exported).map((s) => s.name);
  if (exported.length > 0) add(1, `exported API touched (${list(exported)})`);
  if (removedExports) add(1, 'exported symbols removed');
  if (zone.importers >= 20) add(2, `imported by ${zone.importers} modules outside the zone`);
  else if (zone.importers >= 5) add(1, `imported by ${zone.importers} modules outside the zone`);
  const words = new Set(zone.files.flatMap((f) => pathWords(f.path)));
  const sensitive = [...words].filter((w) => SENSITIVE.test(w)).sort();
  if (sensitive.length > 0) add(2, `security-sensitive code (${list(sensitive)})`);
  if ([...words].some((w) => MIGRATION.test(w))) add(2, 'database migration');
  const hot = zone.files.filter((f) => {
    const c = churn?.get(f.path);
    return c !== undefined && (c.commits90d >= HOT_COMMITS_90D || c.linesAdded30d + c.linesDeleted30d >= HOT_LINES_30D);
  });
  if (hot.length > 0) add(1, `frequently changed files (${list(hot.map((f) => `${f.path}: ${churn!.get(f.path)!.commits90d} commits in 90 days`))})`);
  if (zone.category === 'code' && zone.files.some((f) => categoryOf(f) === 'code' && f.additions > 0 && !isCosmeticOnly(f)) && !hasTests)
    add(1, 'no test changes cover it');
  if (zone.files.some((f) => CI_PATH.test(f.path))) add(1, 'CI or build pipeline');
  const risk: ZoneRisk = points >= 6 ? 'critical' : points >= 4 ? 'high' : points >= 2 ? 'medium' : 'low';
  return [risk, reasons];
}

function list(items: readonly string[], max = 4): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}

/** The wire shape: facts, risk and scope in the summary, each verdict with its reason. */
export function toImpactZones(zones: readonly Zone[], scopes: readonly ZoneScope[]): ImpactZone[] {
  return zones.map((zone, i) => {
    const kinds = new Map<string, number>();
    for (const f of zone.files) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
    const kindText = [...kinds.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    const symbols = zone.symbols.map((s) => (s.exported ? `${s.name} (exported)` : s.name));
    const facts = [
      `${zone.files.length} file${zone.files.length === 1 ? '' : 's'} (${kindText}), +${zone.additions}/-${zone.deletions}`,
      symbols.length > 0 ? `symbols: ${list(symbols, 6)}` : 'no symbols touched',
    ];
    if (zone.importers > 0) facts.push(`imported by ${zone.importers} module${zone.importers === 1 ? '' : 's'} outside the zone`);
    const risk = zone.riskReasons.length > 0 ? `risk ${zone.risk}: ${zone.riskReasons.join(', ')}` : `risk ${zone.risk}: no risk signal`;
    const scope = scopes[i] ?? { classification: 'primary', reason: '' };
    return {
      name: zone.name,
      risk: zone.risk,
      scope_classification: scope.classification,
      summary: `${facts.join('; ')}. ${capitalise(risk)}. Scope ${scope.classification}${scope.reason ? `: ${scope.reason}` : ''}.`,
      intent: zone.intent,
      files: zone.files.map((f) => ({ path: f.path, additions: f.additions, deletions: f.deletions })),
    };
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
