// The port through which the engine asks a model for structured output: a system and a user
// message in, a value that passed a zod schema out. Adapters (openai-json-client.ts) own the
// protocol, timeouts, retries and the token budget; callers own the fallback.
import type { z } from 'zod';

export interface JsonCompletionRequest<T> {
  /** Names the response format (`pr_classification`); letters, digits, `_` and `-`. */
  name: string;
  system: string;
  user: string;
  /** Validates (and types) the parsed answer; its JSON Schema is what the model is asked for. */
  schema: z.ZodType<T>;
  /** Upper bound of the answer's tokens. */
  maxOutputTokens?: number;
}

export interface JsonCompletionClient {
  /** `provider/model`, for summaries and logs. */
  readonly label: string;
  complete<T>(request: JsonCompletionRequest<T>): Promise<T>;
}

/** Why a structured completion could not be had; `kind` is what callers report. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly kind: 'timeout' | 'http' | 'network' | 'invalid_json' | 'invalid_answer' | 'refused' | 'budget',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
