// Finds blocks of code repeated across the repository (type-1 copies, and type-2 copies in `weak`
// mode) from the token streams the collector stored, and publishes the duplication index.
import { defineRule, roleOfFile } from '@codehealth/engine/kit';
import { z } from 'zod';
import { findCloneClasses } from '../clone-detection.js';
import { optionsKey, readSavedClones, savePass, updateCloneClasses, type SavedClones } from '../clone-state.js';
import type { LocatedClone } from '../clone-fragments.js';
import { duplicatedRowsByFile, encodeLocated, locateEach, restoreLocated, updateDuplicatedRows } from '../clone-results.js';
import { planFindings } from '../finding-plan.js';
import { describeFinding } from '../clone-report.js';
import { collectFiles, DUPLICATION_MODES, type FileTokens } from '../token-streams.js';

/** jscpd's defaults, so that both tools agree out of the box. */
const DEFAULTS = {
  minTokens: 50,
  minLines: 5,
  mode: 'mild' as const,
  ignoreTests: true,
  ignoreImports: true,
  ignoreOverloads: true,
};

const options = z
  .object({
    minTokens: z.number().int().min(10).default(DEFAULTS.minTokens),
    minLines: z.number().int().min(1).default(DEFAULTS.minLines),
    mode: z.enum(DUPLICATION_MODES).default(DEFAULTS.mode),
    ignoreTests: z.boolean().default(DEFAULTS.ignoreTests),
    ignoreImports: z.boolean().default(DEFAULTS.ignoreImports),
    ignoreOverloads: z.boolean().default(DEFAULTS.ignoreOverloads),
  })
  .strict()
  .default(DEFAULTS);

/** Roles whose files are standalone by design: copies among them only are not reported. */
const OUTSIDE_PRODUCT: ReadonlySet<string> = new Set(['example', 'benchmark', 'docs', 'generated', 'vendored', 'fixture']);

export const duplicatedCode = defineRule({
  kind: 'repository',
  meta: {
    id: 'duplicated-code',
    description: 'Blocks of code repeated in several places of the repository (copy-paste)',
    category: 'duplication',
    severity: 'info',
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'Every copy of a block has to be found and changed together: a fix applied to one copy and not the others ' +
        'leaves the bug alive elsewhere, and the copies drift apart until nobody knows which one is right.',
      suggestedAction:
        'Extract the repeated block into one function (or module) with the differences as parameters, and call it ' + 'from every place that holds a copy.',
    },
  },
  analyze(context) {
    const { minTokens, minLines, mode, ignoreTests, ignoreImports, ignoreOverloads } = context.options;
    const { files, withoutTokens } = collectFiles(context.summaries, { mode, ignoreImports, ignoreTests });
    context.progress(`Looking for duplicated code in ${files.length} files`);
    const policy = { minTokens, minLines, ignoreOverloads };
    // Normalised names turn lists of similar statements into repetitive runs that start no clone,
    // so in `weak` mode exact copies are looked for too: `weak` finds all that `mild` finds.
    const passes: Array<(f: FileTokens) => Int32Array> = mode === 'weak' ? [(f) => f.hashes, (f) => f.exact] : [(f) => f.hashes];
    const detection = { minTokens, mode, ignoreImports, ignoreTests };
    const saved = context.previous && readSavedClones(context.previous.state, detection, passes.length);
    const changed = context.previous?.changedPaths ?? new Set<string>();
    // Per pass: the classes and where each is located, from the saved state where it still holds.
    // Files are decoded on first use: a derived run reads only those its update needs.
    const results = passes.map((sequenceOf, pass) => {
      const change = saved && {
        paths: files.map((f) => f.summary.path),
        sequence: (i: number) => sequenceOf(files[i]),
        bound: (i: number) => files[i].tokenCount,
        changed,
        minTokens,
      };
      const updated = change && updateCloneClasses(saved.passes[pass], change);
      const restored = updated && restoreLocated(saved.passes[pass], updated, files, policy);
      if (!updated || !restored) {
        const classes = findCloneClasses(files.map(sequenceOf), minTokens);
        return { classes, located: locateEach(classes, files, policy) };
      }
      context.progress(
        `Duplicated code: the base run's clones updated for the changed files (${updated.read} of ${files.length} files read, ${updated.compared} hold the classes found again)`,
      );
      return { classes: updated.classes, located: restored.located, touched: restored.touched };
    });
    const clones = results[0].located.filter((c): c is LocatedClone => c !== undefined);
    if (mode === 'weak') {
      const keyOf = (clone: LocatedClone) => clone.fragments.map((f) => `${f.file.summary.path}:${f.start}-${f.end}`).join('|');
      const found = new Set(clones.map(keyOf));
      for (const clone of results[1].located) {
        if (clone && !found.has(keyOf(clone))) clones.push(clone);
      }
    }
    // Lines counted again only in files whose copies may differ from the saved run's.
    const touched = results.every((r) => r.touched) && new Set([...changed, ...results.flatMap((r) => [...r.touched!])]);
    const rowsByFile =
      (saved && touched && updateDuplicatedRows({ files: saved.passes[0].files, duplicatedRows: saved.duplicatedRows }, clones, files, touched)) ||
      duplicatedRowsByFile(clones);
    if (context.saveState) {
      const indexOf = new Map(files.map((f, i) => [f, i]));
      const paths = files.map((f) => f.summary.path);
      context.saveState({
        format: 3,
        options: optionsKey(detection),
        passes: passes.map((sequenceOf, pass) =>
          savePass(paths, files.map(sequenceOf), results[pass].classes, minTokens, encodeLocated(results[pass].located, indexOf)),
        ),
        duplicatedRows: files.map((f) => rowsByFile.get(f) ?? 0),
      } satisfies SavedClones);
    }
    if (context.signal.aborted) return;
    const planned = planFindings(clones);
    // A scoped run keeps reports in its scope only: the others are not described (the metrics below still count every clone).
    const scope = context.scope;
    // Only `weak` mode compares normalised tokens; otherwise a clone's copies are identical.
    const exactTokens = mode !== 'weak';
    for (const finding of planned) {
      if (scope && !scope.has(finding.fragment.file.summary.path)) continue;
      // Copies among examples, benchmarks and other code outside the product only (a demo app per
      // framework, a scenario per benchmark, msw's generated worker in each example) are standalone
      // by design; a copy of the product's code there is still reported.
      if (finding.clone.fragments.every((f) => OUTSIDE_PRODUCT.has(roleOfFile(f.file.summary)))) continue;
      context.report(describeFinding(finding, exactTokens));
    }

    // The product's duplication: lines of production files in clones with another production copy,
    // over production code. Copies among examples, benchmarks or tests, or of the product in them,
    // are reported (with their role) but are not the product's duplication.
    const production = files.filter((f) => f.summary.kind === 'source' && roleOfFile(f.summary) === 'production');
    const inProduction = new Set(production);
    const productionClones = clones.filter((c) => c.fragments.filter((f) => inProduction.has(f.file)).length >= 2);
    const productionRows =
      production.length === files.length && productionClones.length === clones.length ? rowsByFile : duplicatedRowsByFile(productionClones, inProduction);
    let duplicated = 0;
    for (const file of production) duplicated += productionRows.get(file) ?? 0;
    const codeLines = production.reduce((sum, f) => sum + f.summary.lines.code, 0);
    context.metric('duplicatedLines', duplicated);
    // No code compared is no measurement, not 0 % duplication.
    context.metric('duplicationIndex', codeLines === 0 ? null : Math.min(100, Math.round((duplicated / codeLines) * 10_000) / 100));
    context.metric('clones', planned.length);
    context.metric('cloneClasses', clones.length);
    if (withoutTokens > 0) context.metric('filesWithoutTokens', withoutTokens);
  },
});
