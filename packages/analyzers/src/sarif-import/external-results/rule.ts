// Imports other tools' SARIF 2.1.0 results (ESLint, Semgrep, CodeQL, …) as issues with source
// `static_analyzer`, keeping each tool's rule id. Files are found by name in the repository
// (`*.sarif`, `*.sarif.json`) or named in the rule's `files` option.
import { isAbsolute, relative, sep } from 'node:path';
import { decodeText, defineRule, fromSarif, parseJson, readRepositoryFile, type RepositoryRuleContext } from '@codehealth/engine/kit';
import { z } from 'zod';

const MAX_SARIF_BYTES = 50 * 1024 * 1024;

const options = z
  .object({
    /** SARIF files relative to the repository root; they may be gitignored build output. */
    files: z.array(z.string().min(1)).default([]),
    /** Also import every `*.sarif` / `*.sarif.json` file of the inventory. */
    autoDetect: z.boolean().default(true),
  })
  .strict()
  .default({ files: [], autoDetect: true });

export const SARIF_NAME = /\.sarif(\.json)?$/i;

async function sarifFiles(context: RepositoryRuleContext<z.infer<typeof options>>): Promise<string[]> {
  const found = new Set<string>();
  if (context.options.autoDetect) for (const f of context.snapshot.files) if (SARIF_NAME.test(f.path)) found.add(f.path);
  for (const path of context.options.files) found.add(path);
  return [...found].sort();
}

export const externalResults = defineRule({
  kind: 'repository',
  meta: {
    id: 'external-results',
    description: 'Results of other static analysers, imported from SARIF files',
    category: 'code_smell',
    severity: 'medium',
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        "The tool that produced this result considers it a problem; keeping it next to CodeHealth's own findings puts every known issue in one list, one score and one dismissal workflow.",
      suggestedAction: "Follow the producing tool's documentation for this rule, or dismiss the issue if the rule does not apply.",
    },
  },
  async analyze(context) {
    const { root } = context.snapshot;
    let imported = 0;
    for (const path of await sarifFiles(context)) {
      // A configured path that escapes the repository (`..`, a link out of it) is never read.
      const read = await readRepositoryFile(root, path, { maxBytes: MAX_SARIF_BYTES });
      if (!read.ok) {
        context.progress(`SARIF file skipped: ${read.message}`);
        continue;
      }
      // The reasons a file is skipped say where it is wrong, never what it holds.
      const parsed = parseJson(decodeText(read.bytes));
      if (!parsed.ok) {
        context.progress(`SARIF file ${path} skipped: ${parsed.message}`);
        continue;
      }
      let findings;
      try {
        findings = fromSarif(parsed.value);
      } catch (error) {
        context.progress(`SARIF file ${path} skipped: ${(error as Error).message}`);
        continue;
      }
      imported++;
      for (const f of findings) {
        const filePath = isAbsolute(f.filePath) ? relative(root, f.filePath).split(sep).join('/') : f.filePath;
        if (filePath.startsWith('..')) continue;
        context.report({
          filePath,
          lineStart: f.anchor.lineStart,
          lineEnd: f.anchor.lineEnd,
          title: f.title,
          description: f.description,
          severity: f.severity,
          confidence: f.confidence,
          whyItMatters: f.whyItMatters || undefined,
          suggestedAction: f.suggestedAction || undefined,
          symbol: f.symbol,
          data: f.data,
          origin: { ruleId: f.ruleId, analyzerName: f.analyzerName, category: f.category, source: f.source, autoFixable: f.autoFixable },
        });
      }
    }
    context.metric('importedFiles', imported);
  },
});
