// PR classification through the small model slot, grounded in the deterministic facts: the model
// receives the title, description, branch, commits, changed files and what the diff reader and
// rules found, and answers with a JSON-schema-constrained intent and summary. The change
// categories and risk signals stay the computed ones (the model may add up to three, marked as
// its own). Any failure — timeout, HTTP error, invalid JSON, an answer outside the schema —
// falls back to the deterministic classifier, and the summary says which classifier was used.
import { z } from 'zod';
import type { PrClassification } from './result.js';
import type { JsonCompletionClient } from '../contracts/json-completion.js';
import { changeFacts, type ChangeFacts } from './change-facts.js';
import { classifyDeterministic, INTENTS } from './classify.js';
import type { PullRequestChange } from './diff.js';
import type { PullRequestInfo } from './types.js';

export const LlmClassificationSchema = z.strictObject({
  primary_intent: z.enum(INTENTS),
  secondary_intents: z.array(z.enum(INTENTS)).max(3),
  summary: z.string().trim().min(1).max(600),
  additional_risk_signals: z.array(z.string().trim().min(1).max(160)).max(3),
});
export type LlmClassification = z.infer<typeof LlmClassificationSchema>;

export interface ClassificationOutcome {
  classification: PrClassification;
  facts: ChangeFacts;
  /** `llm`: the model's answer was used; `rules`: the deterministic classifier's. */
  method: 'llm' | 'rules';
  /** The model asked (`provider/model`), when one is configured. */
  model?: string;
  /** Why the model's answer was not used. */
  fallbackReason?: string;
}

const MAX_BODY_CHARS = 2_000;
const MAX_FILES = 80;
const MAX_COMMITS = 20;
const MAX_SYMBOLS = 30;

const SYSTEM = `You classify a pull request for reviewers. Answer with JSON only, matching the given schema.
Intents (choose primary_intent from these, and up to 3 different secondary_intents):
- feature: new behaviour or API for users; bugfix: corrects wrong behaviour; refactor: restructures code without changing behaviour;
- test: only adds or changes tests; docs: documentation only; dependency: adds, removes or upgrades dependencies;
- config: build, CI, tooling or runtime configuration; performance: makes something faster or leaner;
- security: fixes or hardens a security weakness; chore: maintenance that fits nothing else.
Ground every statement in the facts given (files, symbols, commits, risk signals); do not invent behaviour.
summary: 1 to 3 plain sentences on what the change does and what a reviewer should look at.
additional_risk_signals: risks the computed risk_signals do not already name (often none: use []).
The rule_based_guess is a deterministic baseline; overrule it only when the facts clearly say otherwise.`;

/** The facts the model sees, bounded in size (the prompt never holds file contents). */
export function classificationPrompt(
  pr: Pick<PullRequestInfo, 'title' | 'body' | 'headBranch' | 'baseBranch'>,
  change: PullRequestChange,
  facts: ChangeFacts,
  guess: PrClassification,
): string {
  const body = pr.body.length > MAX_BODY_CHARS ? `${pr.body.slice(0, MAX_BODY_CHARS)}… (truncated)` : pr.body;
  const files = change.diff.files.slice(0, MAX_FILES).map((f) => ({
    path: f.path,
    ...(f.oldPath ? { old_path: f.oldPath } : {}),
    status: f.status,
    kind: f.kind,
    categories: facts.categoriesOf.get(f.path),
    additions: f.additions,
    deletions: f.deletions,
    ...(f.binary ? { binary: true } : {}),
    symbols: [...new Set(f.symbols.map((s) => `${s.change ?? 'touched'} ${s.exported ? 'exported ' : ''}${s.kind} ${s.name}`))].slice(0, MAX_SYMBOLS),
  }));
  return JSON.stringify(
    {
      title: pr.title,
      description: body,
      branch: `${pr.headBranch} -> ${pr.baseBranch}`,
      commits: change.diff.commits.slice(-MAX_COMMITS).map((c) => c.subject),
      totals: {
        files: change.diff.files.length,
        additions: facts.additions,
        deletions: facts.deletions,
        ...(change.diff.files.length > MAX_FILES ? { files_listed: MAX_FILES } : {}),
      },
      files,
      exports: {
        added: facts.exports.added.map((r) => r.name),
        removed: facts.exports.removed.map((r) => r.name),
        signature_changed: facts.exports.changed.map((r) => r.name),
      },
      renames: facts.renames.map((r) => `${r.from.file}:${r.from.name} -> ${r.to.file}:${r.to.name}`),
      dependency_changes: facts.dependencyChanges.map((d) => `${d.name} ${d.from ?? '(new)'} -> ${d.to ?? '(removed)'}`),
      risk_signals: guess.risk_signals,
      rule_based_guess: { primary_intent: guess.primary_intent, secondary_intents: guess.secondary_intents },
    },
    null,
    1,
  );
}

/** Rules' summary, its closing "Classified by rules…" sentence saying why the model was not used. */
const withFallbackNote = (summary: string, model: string, reason: string) =>
  summary.replace('Classified by rules', `Classified by rules (model ${model} not used: ${reason})`);

/**
 * Classifies with the model when a client is given, otherwise (or on any failure) with the rules.
 * `log` receives one line saying which classifier was used and why.
 */
export async function classifyPullRequest(
  pr: Pick<PullRequestInfo, 'title' | 'body' | 'headBranch' | 'baseBranch'>,
  change: PullRequestChange,
  llm?: JsonCompletionClient,
  log?: (line: string) => void,
): Promise<ClassificationOutcome> {
  const facts = changeFacts(change);
  const rules = classifyDeterministic(pr, change, facts).classification;
  if (!llm) return { classification: rules, facts, method: 'rules' };
  try {
    const answer = await llm.complete({
      name: 'pr_classification',
      system: SYSTEM,
      user: classificationPrompt(pr, change, facts, rules),
      schema: LlmClassificationSchema,
      maxOutputTokens: 600,
    });
    const secondary = [...new Set(answer.secondary_intents)].filter((intent) => intent !== answer.primary_intent);
    const extra = answer.additional_risk_signals.filter((signal) => !rules.risk_signals.includes(signal)).map((signal) => `model-reported: ${signal}`);
    log?.(`classification: ${answer.primary_intent} by ${llm.label} (rules said ${rules.primary_intent})`);
    return {
      classification: {
        primary_intent: answer.primary_intent,
        secondary_intents: secondary,
        change_categories: rules.change_categories,
        risk_signals: [...rules.risk_signals, ...extra],
        summary: `${answer.summary.replace(/\s+$/, '')}${/[.!?]$/.test(answer.summary) ? '' : '.'} Classified by the small model ${llm.label}.`,
      },
      facts,
      method: 'llm',
      model: llm.label,
    };
  } catch (error) {
    const reason = (error as { kind?: string }).kind ?? 'error';
    log?.(`classification: ${rules.primary_intent} by rules; ${llm.label} failed (${reason}): ${(error as Error).message}`);
    return {
      classification: { ...rules, summary: withFallbackNote(rules.summary, llm.label, reason) },
      facts,
      method: 'rules',
      model: llm.label,
      fallbackReason: (error as Error).message,
    };
  }
}
