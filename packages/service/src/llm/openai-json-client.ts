// The JSON-completion port over the `openai` package pointed at any OpenAI-compatible endpoint
// (`baseURL`): chat completions with a `json_schema` response format (strict), an answer parsed
// and validated with zod, a timeout per attempt, a bounded number of retries, a token budget per
// client (one client per run), and one log line per request saying what is sent — model,
// endpoint, sizes — never the key or the content. The `openai` package is loaded on the first
// completion (a dynamic import): a deployment without a model never loads it.
import type OpenAI from 'openai';
import { z } from 'zod';
import { LlmError, type JsonCompletionClient, type JsonCompletionRequest } from './json-completion.js';
import { endpointForLog, type LlmSlot } from './llm-slot.js';

export interface OpenAiJsonClientOptions {
  /** Per attempt. Default 20 s. */
  timeoutMs?: number;
  /** Further attempts after a failed one (timeouts, 429/5xx, network, unusable answers). Default 1. */
  retries?: number;
  /** Tokens (prompt + completion, as the server reports them) this client may spend. Default 50,000. */
  budgetTokens?: number;
  log?: (line: string) => void;
  /** Replaces the built client (tests of the adapter's own logic use the real client against a local server instead). */
  client?: OpenAI;
}

export const DEFAULT_LLM_TIMEOUT_MS = 20_000;
const DEFAULT_BUDGET_TOKENS = 50_000;
const DEFAULT_MAX_OUTPUT_TOKENS = 800;
/** Keywords OpenAI's strict structured outputs refuse; zod still enforces them on the answer. */
const UNSUPPORTED_KEYWORDS = new Set(['$schema', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'format']);

/** The JSON Schema sent as the response format: the zod schema's, minus what strict mode refuses. */
export function responseSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !UNSUPPORTED_KEYWORDS.has(key))
        .map(([key, value]) => [key, strip(value)]),
    );
  };
  return strip(z.toJSONSchema(schema, { io: 'input' })) as Record<string, unknown>;
}

type OpenAiModule = typeof import('openai');

function classify(error: unknown, timeoutMs: number, { default: OpenAI }: OpenAiModule): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('timeout', `no answer within ${timeoutMs} ms`);
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return new LlmError('http', `HTTP ${error.status}: ${String(error.message).split('\n')[0]!.slice(0, 200)}`, error.status);
  }
  if (error instanceof OpenAI.APIConnectionError) return new LlmError('network', `connection failed: ${error.message}`);
  return new LlmError('network', (error as Error)?.message ?? String(error));
}

/** 4xx other than 408 (timeout) and 429 (rate limit) will not change on retry; neither will an empty budget. */
const retryable = (error: LlmError) =>
  error.kind !== 'budget' && !(error.kind === 'http' && error.status! < 500 && error.status !== 408 && error.status !== 429);

export class OpenAiJsonClient implements JsonCompletionClient {
  readonly label: string;
  private loaded?: Promise<{ module: OpenAiModule; client: OpenAI }>;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly budget: number;
  private spent = 0;

  constructor(
    private readonly slot: LlmSlot,
    private readonly options: OpenAiJsonClientOptions = {},
  ) {
    this.label = `${slot.provider}/${slot.model}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    this.retries = Math.max(0, options.retries ?? 1);
    this.budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  }

  /** The package and the client, loaded and built once, on the first completion. */
  private load(): Promise<{ module: OpenAiModule; client: OpenAI }> {
    this.loaded ??= import('openai').then((module) => ({
      module,
      // Retries are ours (they also cover unusable answers), so the client's own are off.
      client: this.options.client ?? new module.default({ apiKey: this.slot.apiKey, baseURL: this.slot.baseUrl, timeout: this.timeoutMs, maxRetries: 0 }),
    }));
    return this.loaded;
  }

  /** Tokens spent so far, as reported by the server. */
  get tokensSpent(): number {
    return this.spent;
  }

  async complete<T>(request: JsonCompletionRequest<T>): Promise<T> {
    const body = {
      model: this.slot.model,
      messages: [
        { role: 'system' as const, content: request.system },
        { role: 'user' as const, content: request.user },
      ],
      response_format: { type: 'json_schema' as const, json_schema: { name: request.name, strict: true, schema: responseSchemaOf(request.schema) } },
      max_completion_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    };
    const { module, client } = await this.load();
    let last: LlmError | undefined;
    for (let attempt = 1; attempt <= 1 + this.retries; attempt++) {
      if (this.spent >= this.budget) throw new LlmError('budget', `token budget of ${this.budget} spent (${this.spent})`);
      this.options.log?.(
        `llm ${this.slot.slot}: ${request.name} -> ${this.label} at ${endpointForLog(this.slot.baseUrl)}: ` +
          `system ${request.system.length} chars, user ${request.user.length} chars, max ${body.max_completion_tokens} output tokens, ` +
          `attempt ${attempt}/${1 + this.retries}, ${this.spent}/${this.budget} tokens spent`,
      );
      try {
        const completion = await client.chat.completions.create(body, { timeout: this.timeoutMs, maxRetries: 0 });
        this.spent += completion.usage?.total_tokens ?? 0;
        return this.answerOf(completion, request.schema);
      } catch (error) {
        last = classify(error, this.timeoutMs, module);
        if (!retryable(last)) break;
      }
    }
    throw last!;
  }

  private answerOf<T>(completion: OpenAI.Chat.Completions.ChatCompletion, schema: z.ZodType<T>): T {
    const choice = completion.choices?.[0];
    if (!choice) throw new LlmError('invalid_answer', 'the answer has no choices');
    if (choice.message.refusal) throw new LlmError('refused', `the model refused: ${choice.message.refusal.slice(0, 200)}`);
    if (choice.finish_reason === 'length') throw new LlmError('invalid_json', 'the answer was cut off at the token limit');
    let parsed: unknown;
    try {
      parsed = JSON.parse(choice.message.content ?? '');
    } catch {
      throw new LlmError('invalid_json', `the answer is not JSON: ${(choice.message.content ?? '').slice(0, 80)}`);
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const problems = result.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
      throw new LlmError('invalid_answer', `the answer does not fit the schema: ${problems.join('; ')}`);
    }
    return result.data;
  }
}
