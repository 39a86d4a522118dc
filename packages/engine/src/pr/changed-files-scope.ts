// The changed-files scope of a cold review (analyze-change.ts, pipeline.ts): when no assessment of
// the merge base is at hand, the merge base is not assessed in full. Both sides are analysed with
// every code file except the changed ones left out of the inventory (config `exclude`; the other
// files — manifests, configs — stay), and only the findings of file rules are compared. A file
// rule sees one file's text and its options (contracts/analyzer.ts, FileRuleContext), so its
// findings in a changed file are those a full run has; an unchanged file has the same findings on
// both sides, never new or fixed ones. Repository rules read the whole repository (its graph,
// its other files, its history): they are listed as not evaluated, never compared on a partial
// inventory. Scores, graph impact and importers are then those of the changed files alone.
import type { CodeHealthConfig } from '../config/schema.js';
import type { EngineCore } from '../contracts/engine.js';
import { safeIgnore } from '../patterns/safe-ignore.js';

/** Extensions of the languages the engine parses (snapshot/languages.ts); gitignore matching in `exclude` ignores case. */
const CODE_EXTENSIONS = ['ts', 'mts', 'cts', 'tsx', 'js', 'mjs', 'cjs', 'jsx'];

/** What a changed-files review left out, for every report format. */
export interface ChangedFilesEvaluation {
  mode: 'changed-files';
  /** Why: the merge base had no assessment at hand (no cached base), and the full one was not asked for. */
  reason: string;
  /** Rules whose findings were not compared: the repository rules, by id. */
  notEvaluatedRules: string[];
  /** Figures computed over the changed files only, one line each. */
  partial: string[];
}

export const CHANGED_FILES_REASON = 'cold review: no assessment of the merge base was cached, and the full one was not asked for (--full-base)';

export const CHANGED_FILES_PARTIAL = [
  'health projection and scores: computed over the changed files, not the whole repository',
  'graph impact, importers outside the change and the public API: counted among the changed files only',
];

/** Rule ids (`analyzer/rule`, as findings name them) by kind among the engine's analyzers (the rules a run without code config has). */
export function rulesByKind(engine: Pick<EngineCore, 'analyzers'>): { file: Set<string>; repository: string[] } {
  const file = new Set<string>();
  const repository: string[] = [];
  for (const analyzer of engine.analyzers) {
    for (const rule of analyzer.rules) {
      const id = `${analyzer.id}/${rule.meta.id}`;
      if (rule.kind === 'file') file.add(id);
      else repository.push(id);
    }
  }
  return { file, repository: repository.sort() };
}

/** A path written literally in a gitignore pattern needs no escape: no wildcard, backslash, leading `!`/`#` or trailing space. */
const plainPath = (path: string) => !/[*?[\]\\\n\r]/.test(path) && !/^[!#]/.test(path) && !/\s$/.test(path);

/** Whether every path can be named in gitignore-style patterns as is; otherwise the review assesses the base in full. */
export const canScope = (paths: readonly string[]) => paths.every(plainPath);

/**
 * The config of a changed-files run: the repository's own `exclude`, then every code file out,
 * then the scope's files back in — those the repository's own patterns keep (a file it excludes
 * stays excluded, as in a full run).
 */
export function changedFilesConfig(config: CodeHealthConfig, paths: readonly string[]): CodeHealthConfig {
  const own = [...(config.exclude ?? [])];
  const ownIgnore = safeIgnore().add(own);
  const back = [...new Set(paths)].filter((path) => !ownIgnore.ignores(path)).map((path) => `!/${path}`);
  return { ...config, exclude: [...own, ...CODE_EXTENSIONS.map((ext) => `*.${ext}`), ...back] };
}

/**
 * The sparse-checkout patterns (git, case-sensitive) that write the same files a changed-files run
 * reads: everything but code files, and the scope's code files.
 */
export function changedFilesCheckout(paths: readonly string[]): string[] {
  const anyCase = (ext: string) => [...ext].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('');
  return ['/*', ...CODE_EXTENSIONS.map((ext) => `!*.${anyCase(ext)}`), ...[...new Set(paths)].map((path) => `/${path}`)];
}
