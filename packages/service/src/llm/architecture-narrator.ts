// A short narrative summary of an architecture review by the large model slot, grounded only in
// what the review computed (its metrics and findings, never code): the answer is validated by its
// schema, and then checked for grounding — every number and every file it names must occur in the
// facts it was sent. Anything else (no slot, timeout, invalid or ungrounded answer) keeps the
// review's deterministic summary.
import { z } from 'zod';
import type { ArchitectureReviewResult } from '../api/architecture.js';
import type { JsonCompletionClient } from './json-completion.js';
import { ARCHITECTURE_NARRATIVE_SYSTEM, architectureFacts } from './prompts.js';

/** The stored summary (narrative plus the closing attribution) never exceeds this. */
export const MAX_NARRATIVE_CHARS = 1200;
const MAX_LABEL_CHARS = 80;

export const ArchitectureNarrativeSchema = z.strictObject({ narrative: z.string().trim().min(40).max(1000) });

export interface ArchitectureNarration {
  /** The narrative with its attribution, or the review's deterministic summary. */
  summary: string;
  method: 'llm' | 'rules';
  model?: string;
  /** Why the model's narrative was not used. */
  fallbackReason?: string;
}

/** File-like tokens (`src/api/routes.ts`, `orders-repo.ts`): a name with a code or data extension. */
const FILE_TOKEN = /[\w@.\-/]*[\w-]\.(?:[cm]?[jt]sx?|json|vue|svelte)\b/g;
/** Numbers standing alone (not inside identifiers such as `ES2015` or `v2`). */
const NUMBER_TOKEN = /(?<![\w.])\d+(?:\.\d+)?(?![\w])/g;

function factStrings(value: unknown, out: { numbers: number[]; strings: string[] }): void {
  if (typeof value === 'number') out.numbers.push(value);
  else if (typeof value === 'string') {
    out.strings.push(value);
    for (const match of value.replace(FILE_TOKEN, ' ').match(NUMBER_TOKEN) ?? []) out.numbers.push(Number(match));
  } else if (Array.isArray(value)) value.forEach((item) => factStrings(item, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => factStrings(item, out));
}

/**
 * What in the narrative is not in the facts: numbers (as given, or unit values as percentages)
 * and file names (a suffix of a path in the facts). Empty when the narrative is grounded.
 */
export function ungroundedClaims(narrative: string, facts: Record<string, unknown>): string[] {
  const known = { numbers: [] as number[], strings: [] as string[] };
  factStrings(facts, known);
  const allowed = new Set<number>();
  for (const n of known.numbers) {
    allowed.add(n);
    allowed.add(Math.round(n * 100) / 100);
    allowed.add(Math.round(n * 10) / 10);
    if (n >= 0 && n <= 1) [Math.round(n * 100), Math.round(n * 1000) / 10].forEach((p) => allowed.add(p));
  }
  const paths = known.strings.flatMap((s) => s.match(FILE_TOKEN) ?? []);
  const claims: string[] = [];
  for (const file of narrative.match(FILE_TOKEN) ?? []) {
    if (/^[A-Z][A-Za-z]*\.js$/.test(file)) continue; // Node.js, Next.js: product names, not files
    const name = file.replace(/^\.?\//, '');
    if (!paths.some((path) => path === name || path.endsWith(`/${name}`))) claims.push(file);
  }
  for (const match of narrative.replace(FILE_TOKEN, ' ').match(NUMBER_TOKEN) ?? []) {
    const value = Number(match);
    if (![...allowed].some((n) => Math.abs(n - value) < 0.006)) claims.push(match);
  }
  return [...new Set(claims)];
}

/**
 * The review's summary as a narrative by the model, or its deterministic summary when no client
 * is given or the model's answer cannot be used. `log` gets one line saying which and why.
 */
export async function narrateArchitectureReview(
  client: JsonCompletionClient | undefined,
  review: ArchitectureReviewResult,
  options: { log?: (line: string) => void } = {},
): Promise<ArchitectureNarration> {
  if (!client) return { summary: review.summary, method: 'rules' };
  const facts = architectureFacts(review);
  const fallback = (reason: string): ArchitectureNarration => {
    options.log?.(`architecture narrative: computed summary kept; ${client.label} not used (${reason})`);
    return { summary: review.summary, method: 'rules', model: client.label, fallbackReason: reason };
  };
  let narrative: string;
  try {
    const answer = await client.complete({
      name: 'architecture_review_narrative',
      system: ARCHITECTURE_NARRATIVE_SYSTEM,
      user: JSON.stringify(facts, null, 1),
      schema: ArchitectureNarrativeSchema,
      maxOutputTokens: 600,
    });
    narrative = answer.narrative.replace(/\s+/g, ' ');
  } catch (error) {
    return fallback(`${(error as { kind?: string }).kind ?? 'error'}: ${(error as Error)?.message ?? String(error)}`);
  }
  const claims = ungroundedClaims(narrative, facts);
  if (claims.length > 0) return fallback(`ungrounded: ${claims.slice(0, 5).join(', ')} not in the review's facts`);
  const label = client.label.length > MAX_LABEL_CHARS ? `${client.label.slice(0, MAX_LABEL_CHARS - 1)}…` : client.label;
  const summary = `${narrative}${/[.!?]$/.test(narrative) ? '' : '.'} (Narrative by the large model ${label} from the review's computed findings and metrics.)`;
  options.log?.(`architecture narrative: written by ${client.label} (${narrative.length} chars)`);
  return { summary: summary.slice(0, MAX_NARRATIVE_CHARS), method: 'llm', model: client.label };
}
