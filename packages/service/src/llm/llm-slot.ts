// The two model slots of the spec's deployment (`LLM_LARGE_*`, `LLM_SMALL_*`): provider name,
// model, key and endpoint. A slot is configured when its model is set and it has either a key or
// an endpoint (local OpenAI-compatible servers often take no key); otherwise the engine runs its
// deterministic heuristics instead.

export type LlmSlotName = 'small' | 'large';

export interface LlmSlot {
  slot: LlmSlotName;
  /** Free-form provider name (`openai`, `azure`, `vllm`, ...), for logs; the protocol is always OpenAI's. */
  provider: string;
  model: string;
  apiKey: string;
  /** Endpoint base URL (`https://host/v1`); undefined means OpenAI's own. */
  baseUrl?: string;
}

const value = (env: Readonly<Record<string, string | undefined>>, name: string) => env[name]?.trim() || undefined;

/** Reads one slot from the environment; undefined when it is not configured. */
export function llmSlotFromEnv(slot: LlmSlotName, env: Readonly<Record<string, string | undefined>> = process.env): LlmSlot | undefined {
  const prefix = `LLM_${slot.toUpperCase()}_`;
  const model = value(env, `${prefix}MODEL`);
  const apiKey = value(env, `${prefix}API_KEY`);
  const baseUrl = value(env, `${prefix}BASE_URL`);
  if (!model || (!apiKey && !baseUrl)) return undefined;
  // The openai client refuses an empty key; a keyless local server ignores whatever is sent.
  return { slot, provider: value(env, `${prefix}PROVIDER`) ?? 'openai', model, apiKey: apiKey ?? 'not-needed', ...(baseUrl ? { baseUrl } : {}) };
}

/** The endpoint as it may appear in logs: origin and path, never credentials or query. */
export function endpointForLog(baseUrl: string | undefined): string {
  if (!baseUrl) return 'api.openai.com';
  try {
    const url = new URL(baseUrl);
    return `${url.host}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}
