// Facts about a PR's change that classification, risk signals and scope read: the category of
// every changed file (source, tests, docs, config, dependencies, ci, migrations, generated,
// assets), dependency changes read from both sides of package.json manifests, exported symbols
// added/removed/changed, symbol renames and moves, and security-sensitive files. Pure functions
// over the diff; the vocabularies are documented in pr/README.md.
import { meaningfulHunks } from './cosmetic-hunks.js';
import type { PullRequestChange } from './diff.js';
import type { ChangedFile, ChangedSymbol } from './types.js';

export const CHANGE_CATEGORIES = ['source', 'tests', 'docs', 'config', 'dependencies', 'ci', 'migrations', 'generated', 'assets'] as const;
export type ChangeCategory = (typeof CHANGE_CATEGORIES)[number];

const CI_PATH =
  /^(\.github\/(workflows|actions)\/|\.circleci\/|\.gitlab-ci\.ya?ml$|\.travis\.ya?ml$|azure-pipelines\.ya?ml$|bitbucket-pipelines\.ya?ml$|Jenkinsfile$|\.buildkite\/|\.ci\/)/;
const MIGRATION_PATH = /(^|\/)(migrations?|migrate)\/|(^|\/)db\/.*\.sql$|(^|\/)schema\.prisma$/i;
const LOCK_FILE =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|go\.sum|Cargo\.lock|poetry\.lock|Gemfile\.lock|composer\.lock)$/;
/** Lock files: generated, but dependency data rather than code (read through their manifests). */
export const isLockFile = (path: string) => LOCK_FILE.test(path);
const DEPENDENCY_MANIFEST = /(^|\/)(requirements[^/]*\.txt|go\.mod|Cargo\.toml|pyproject\.toml|Gemfile|composer\.json)$/;
const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Words in paths and symbol names that mark security-sensitive code (matched whole, case-insensitively). */
const SECURITY_WORDS = new Set([
  'auth',
  'authn',
  'authz',
  'authenticate',
  'authentication',
  'authorize',
  'authorization',
  'login',
  'logout',
  'signin',
  'signup',
  'session',
  'sessions',
  'password',
  'passwords',
  'passwd',
  'crypto',
  'cipher',
  'encrypt',
  'encryption',
  'decrypt',
  'jwt',
  'oauth',
  'oauth2',
  'saml',
  'sso',
  'permission',
  'permissions',
  'acl',
  'rbac',
  'csrf',
  'xss',
  'sanitize',
  'sanitizer',
  'security',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'hmac',
  'totp',
  'mfa',
]);
/** Modules whose use makes a changed file security-sensitive. */
const SECURITY_MODULES =
  /^(node:)?crypto$|^(bcrypt|bcryptjs|argon2|jsonwebtoken|jose|jwks-rsa|helmet|csurf|express-session|cookie-session|node-forge|tweetnacl|@node-rs\/argon2|@node-rs\/bcrypt)$|^passport(-|$)|^@auth\/|^next-auth$/;

export interface DependencyChange {
  manifest: string;
  name: string;
  section: string;
  from?: string;
  to?: string;
}

export interface SymbolRef {
  file: string;
  name: string;
  kind: string;
}

export interface ChangeFacts {
  categoriesOf: Map<string, ChangeCategory[]>;
  categories: ChangeCategory[];
  additions: number;
  deletions: number;
  /** Changed files that are not generated, vendored or binary. */
  reviewable: ChangedFile[];
  dependencyChanges: DependencyChange[];
  exports: { added: SymbolRef[]; removed: SymbolRef[]; changed: SymbolRef[] };
  /** Removed/added symbol pairs explained as a rename (same file) or a move (same name, other file). */
  renames: Array<{ from: SymbolRef; to: SymbolRef; move: boolean }>;
  /** Every code change is a file rename/move, a symbol rename/move or an import/export-only edit, and lines balance. */
  structuralOnly: boolean;
  /** A release: package versions bumped, and nothing else changed but changelogs, changesets and lock files. */
  release: boolean;
  securityFiles: string[];
}

/** Splits a path or identifier into lower-case words (`/`, `.`, `_`, `-` and camelCase boundaries). */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function readJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Dependency additions, removals and version changes, and whether anything else in the manifest changed. */
export function manifestChanges(path: string, base: string | undefined, head: string | undefined): { dependencies: DependencyChange[]; otherFields: boolean } {
  const before = readJson(base) ?? {};
  const after = readJson(head) ?? {};
  const dependencies: DependencyChange[] = [];
  for (const section of DEPENDENCY_SECTIONS) {
    const from = (before[section] ?? {}) as Record<string, string>;
    const to = (after[section] ?? {}) as Record<string, string>;
    for (const name of new Set([...Object.keys(from), ...Object.keys(to)])) {
      if (from[name] === to[name]) continue;
      dependencies.push({
        manifest: path,
        name,
        section,
        ...(from[name] !== undefined ? { from: String(from[name]) } : {}),
        ...(to[name] !== undefined ? { to: String(to[name]) } : {}),
      });
    }
  }
  const strip = (json: Record<string, unknown>) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(json)
          .filter(([key]) => !(DEPENDENCY_SECTIONS as readonly string[]).includes(key))
          .sort(),
      ),
    );
  return { dependencies, otherFields: strip(before) !== strip(after) };
}

function categoriesOfFile(file: ChangedFile, change: PullRequestChange, deps: DependencyChange[]): ChangeCategory[] {
  const path = file.path;
  if (CI_PATH.test(path)) return ['ci'];
  if (LOCK_FILE.test(path) || DEPENDENCY_MANIFEST.test(path)) return ['dependencies'];
  const manifest = /(^|\/)package\.json$/.test(path) ? change.texts.get(path) : undefined;
  if (manifest) {
    const { dependencies, otherFields } = manifestChanges(path, manifest.base, manifest.head);
    deps.push(...dependencies);
    const out: ChangeCategory[] = [];
    if (dependencies.length > 0) out.push('dependencies');
    if (otherFields || dependencies.length === 0) out.push('config');
    return out;
  }
  if (MIGRATION_PATH.test(path) && file.kind !== 'test' && file.kind !== 'documentation') return ['migrations'];
  if (file.generated) return ['generated'];
  switch (file.kind) {
    case 'source':
      return ['source'];
    case 'test':
      return ['tests'];
    case 'documentation':
      return ['docs'];
    case 'config':
      return ['config'];
    default:
      return ['assets'];
  }
}

const refOf = (file: string, symbol: ChangedSymbol): SymbolRef => ({ file, name: symbol.name, kind: symbol.kind });
const lengthOf = (symbol: ChangedSymbol) => symbol.lineEnd - symbol.lineStart + 1;

/** Pairs removed with added symbols: same name in another file (a move), or same kind and similar length in the same file (a rename). */
function pairRenames(reviewable: readonly ChangedFile[]): ChangeFacts['renames'] {
  const removed = reviewable.flatMap((f) => f.symbols.filter((s) => s.change === 'removed').map((s) => ({ file: f, symbol: s })));
  const added = reviewable.flatMap((f) => f.symbols.filter((s) => s.change === 'added').map((s) => ({ file: f, symbol: s })));
  const used = new Set<number>();
  const pairs: ChangeFacts['renames'] = [];
  const take = (from: (typeof removed)[number], match: (candidate: (typeof added)[number]) => boolean, move: boolean) => {
    const index = added.findIndex((candidate, i) => !used.has(i) && candidate.symbol.kind === from.symbol.kind && match(candidate));
    if (index === -1) return false;
    used.add(index);
    pairs.push({ from: refOf(from.file.oldPath ?? from.file.path, from.symbol), to: refOf(added[index]!.file.path, added[index]!.symbol), move });
    return true;
  };
  for (const from of removed) {
    if (take(from, (c) => c.symbol.name === from.symbol.name && c.file !== from.file, true)) continue;
    const size = lengthOf(from.symbol);
    take(from, (c) => c.file === from.file && Math.abs(lengthOf(c.symbol) - size) <= Math.max(2, size * 0.2), false);
  }
  return pairs;
}

const CHANGELOG = /(^|\/)(CHANGELOG|CHANGES|HISTORY|RELEASES?|RELEASE[-_]NOTES)(\.[a-z]+)?$/i;
const CHANGESET = /(^|\/)\.changesets?\/[^/]+\.md$/;

/** The manifest's `version` changed, and nothing else but dependency ranges (a monorepo release bumps its siblings). */
function versionBumped(text: { base?: string; head?: string } | undefined): boolean {
  const before = readJson(text?.base);
  const after = readJson(text?.head);
  if (!before || !after || typeof after.version !== 'string' || before.version === after.version) return false;
  const rest = (json: Record<string, unknown>) =>
    JSON.stringify(
      Object.entries(json)
        .filter(([key]) => key !== 'version' && !(DEPENDENCY_SECTIONS as readonly string[]).includes(key))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  return rest(before) === rest(after);
}

/**
 * A release (a "Version Packages" PR of changesets, `npm version` with its changelog): at least one
 * package.json whose version changed and nothing else of it but dependency ranges, and besides such
 * manifests only changelogs, consumed changesets and lock files. Its Markdown is release notes, not docs.
 */
function isRelease(reviewable: readonly ChangedFile[], change: PullRequestChange): boolean {
  let bumps = 0;
  for (const file of reviewable) {
    if (CHANGELOG.test(file.path) || CHANGESET.test(file.path) || LOCK_FILE.test(file.path)) continue;
    if (/(^|\/)package\.json$/.test(file.path) && versionBumped(change.texts.get(file.path))) {
      bumps++;
      continue;
    }
    return false;
  }
  return bumps > 0;
}

function isSecuritySensitive(file: ChangedFile, change: PullRequestChange): boolean {
  if (wordsOf(file.path).some((word) => SECURITY_WORDS.has(word))) return true;
  if (file.symbols.some((symbol) => wordsOf(symbol.name).some((word) => SECURITY_WORDS.has(word)))) return true;
  const sides = change.sides.get(file.path);
  const imports = [...(sides?.base?.facts.imports ?? []), ...(sides?.head?.facts.imports ?? [])];
  return file.additions + file.deletions > 0 && imports.some((record) => SECURITY_MODULES.test(record.specifier));
}

/** Types describe the API in their body; for the other kinds the declaration's head does. */
const BODY_IS_API = new Set(['interface', 'type', 'enum']);
const IMPORT_LINE = /^\s*(import\b|export\s+(\*|\{[^}]*\}|type\s*\{[^}]*\})\s*from\b|export\s*\{[^}]*\}\s*;?\s*$|\}\s*from\s*['"])/;

const linesOf = (text: string | undefined) => (text === undefined ? [] : text.split(/\r?\n/));
const inRange = (line: number, start: number, count: number) => count > 0 && line >= start && line < start + count;

/**
 * Whether a modified exported symbol's declaration (not only its body) changed: any line of its
 * head up to the line that opens the body lies in an added range. For interfaces, type aliases
 * and enums any change is an API change.
 */
function declarationChanged(file: ChangedFile, symbol: ChangedSymbol, change: PullRequestChange): boolean {
  if (BODY_IS_API.has(symbol.kind)) return true;
  const lines = linesOf(change.texts.get(file.path)?.head);
  let end = symbol.lineStart;
  while (end < symbol.lineEnd && end - symbol.lineStart < 10 && !/[{=]\s*$|=>/.test(lines[end - 1] ?? '')) end++;
  for (let line = symbol.lineStart; line <= end; line++) if (meaningfulHunks(file.hunks).some((h) => inRange(line, h.newStart, h.newLines))) return true;
  return false;
}

/**
 * True when the removed and added code lines are the same multiset once renamed symbols are
 * substituted, whitespace is collapsed, and import/export-from lines (rewiring) are left out:
 * the change moves and renames code without changing what it does.
 */
function linesBalance(files: readonly ChangedFile[], change: PullRequestChange, renames: ChangeFacts['renames'], keepIndent = false): boolean {
  const substitutions = renames.filter((r) => !r.move).map((r) => [new RegExp(`\\b${r.from.name.replace(/[$.]/g, '\\$&')}\\b`, 'g'), r.to.name] as const);
  const normalise = (line: string) => {
    const text = substitutions.reduce((out, [pattern, to]) => out.replace(pattern, to), line);
    const indent = keepIndent ? (/^\s*/.exec(text)?.[0] ?? '') : '';
    return indent + text.trim().replace(/\s+/g, ' ');
  };
  const pending = new Map<string, number>();
  const count = (line: string, delta: number) => {
    if (line.trim() === '' || IMPORT_LINE.test(line)) return;
    const key = normalise(line);
    pending.set(key, (pending.get(key) ?? 0) + delta);
  };
  for (const file of files) {
    const texts = change.texts.get(file.path);
    if (!texts) return false;
    const base = linesOf(texts.base);
    const head = linesOf(texts.head);
    for (const hunk of file.hunks) {
      for (let i = 0; i < hunk.oldLines; i++) count(base[hunk.oldStart - 1 + i] ?? '', -1);
      for (let i = 0; i < hunk.newLines; i++) count(head[hunk.newStart - 1 + i] ?? '', +1);
    }
  }
  return [...pending.values()].every((n) => n === 0);
}

export function changeFacts(change: PullRequestChange): ChangeFacts {
  const files = change.diff.files;
  const dependencyChanges: DependencyChange[] = [];
  const categoriesOf = new Map<string, ChangeCategory[]>();
  for (const file of files) categoriesOf.set(file.path, categoriesOfFile(file, change, dependencyChanges));
  const present = new Set([...categoriesOf.values()].flat());
  const reviewable = files.filter((f) => !f.generated && !f.binary);
  const code = reviewable.filter((f) => f.kind === 'source');

  const added: SymbolRef[] = [];
  const removed: SymbolRef[] = [];
  const changed: SymbolRef[] = [];
  for (const file of code) {
    const seen = new Set<string>();
    for (const symbol of file.symbols) {
      if (!symbol.exported || symbol.kind === 'method') continue;
      const key = `${symbol.change}\0${symbol.side}\0${symbol.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (symbol.change === 'added') added.push(refOf(file.path, symbol));
      else if (symbol.change === 'removed') removed.push(refOf(file.oldPath ?? file.path, symbol));
      else if (symbol.side === 'head' && declarationChanged(file, symbol, change)) changed.push(refOf(file.path, symbol));
    }
  }
  const renames = pairRenames(reviewable);
  const renamedTo = new Set(renames.map((r) => `${r.to.file}\0${r.to.name}`));
  const codeFiles = reviewable.filter((f) => f.kind === 'source' || f.kind === 'test');
  const structuralOnly =
    codeFiles.length > 0 &&
    reviewable.every((f) => f.kind === 'source' || f.kind === 'test') &&
    added.every((ref) => renamedTo.has(`${ref.file}\0${ref.name}`)) &&
    linesBalance(codeFiles, change, renames) &&
    // Lines that only moved inside their files, with no rename or file move to explain them, are a
    // reorder only at the same depth: a declaration taken out of a try block or a statement out of
    // a loop (re-indented) changes its scope, which is behaviour (express#2065's strict-mode fix).
    (renames.length > 0 || codeFiles.some((f) => f.status === 'renamed') || linesBalance(codeFiles, change, renames, true));
  return {
    categoriesOf,
    categories: CHANGE_CATEGORIES.filter((c) => present.has(c)),
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    reviewable,
    dependencyChanges,
    exports: { added, removed, changed },
    renames,
    structuralOnly,
    release: isRelease(reviewable, change),
    securityFiles: reviewable.filter((f) => f.kind === 'source' && isSecuritySensitive(f, change)).map((f) => f.path),
  };
}
