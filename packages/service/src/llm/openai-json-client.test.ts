// The OpenAI-compatible adapter with the real `openai` client against a local HTTP server that
// speaks the chat-completions protocol: the request it sends, validation, timeouts, retries,
// the token budget, and the log line (which never holds the key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../test/infra/fake-openai.js';
import { LlmError } from './json-completion.js';
import { endpointForLog, llmSlotFromEnv, type LlmSlot } from './llm-slot.js';
import { OpenAiJsonClient, responseSchemaOf } from './openai-json-client.js';

const Answer = z.strictObject({ intent: z.enum(['feature', 'bugfix']), note: z.string().min(1).max(50) });
const request = { name: 'probe', system: 'You classify.', user: 'Classify this.', schema: Answer };

let server: FakeOpenAi;
let slot: LlmSlot;
beforeAll(async () => {
  server = await startFakeOpenAi();
  slot = { slot: 'small', provider: 'fake', model: 'tiny-1', apiKey: 'sk-secret-key-123', baseUrl: server.baseUrl };
});
afterAll(() => server.close());

function client(options: ConstructorParameters<typeof OpenAiJsonClient>[1] = {}) {
  const lines: string[] = [];
  return { lines, client: new OpenAiJsonClient(slot, { timeoutMs: 300, log: (line) => lines.push(line), ...options }) };
}

describe('OpenAiJsonClient', () => {
  it('asks for a strict JSON-schema answer, validates it and logs sizes but never the key', async () => {
    server.script([{ content: JSON.stringify({ intent: 'feature', note: 'adds mul' }) }]);
    const before = server.requests.length;
    const { client: llm, lines } = client();
    await expect(llm.complete(request)).resolves.toEqual({ intent: 'feature', note: 'adds mul' });
    const sent = server.requests[before]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-secret-key-123');
    expect(sent.body).toMatchObject({
      model: 'tiny-1',
      messages: [
        { role: 'system', content: 'You classify.' },
        { role: 'user', content: 'Classify this.' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'probe', strict: true } },
      max_completion_tokens: 800,
    });
    const schema = (sent.body.response_format as { json_schema: { schema: Record<string, unknown> } }).json_schema.schema;
    expect(schema).toEqual({
      type: 'object',
      properties: { intent: { type: 'string', enum: ['feature', 'bugfix'] }, note: { type: 'string' } },
      required: ['intent', 'note'],
      additionalProperties: false,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^llm small: probe -> fake\/tiny-1 at 127\.0\.0\.1:\d+\/v1: system 13 chars, user 14 chars, max 800 output tokens, attempt 1\/2, 0\/50000 tokens spent$/,
    );
    expect(lines.join()).not.toContain('sk-secret');
    expect(llm.tokensSpent).toBe(120);
  });

  it('retries once after a timeout and then succeeds', async () => {
    server.script([{ delayMs: 2_000, content: '{}' }, { content: JSON.stringify({ intent: 'bugfix', note: 'x' }) }]);
    const before = server.requests.length;
    const { client: llm, lines } = client();
    await expect(llm.complete(request)).resolves.toEqual({ intent: 'bugfix', note: 'x' });
    expect(server.requests.length - before).toBe(2);
    expect(lines[1]).toContain('attempt 2/2');
  });

  it('gives up after the retry with the reason: timeout, invalid JSON, an answer outside the schema, a refusal, a cut-off', async () => {
    const cases: Array<[Parameters<FakeOpenAi['script']>[0], LlmError['kind'], RegExp]> = [
      [[{ delayMs: 2_000 }], 'timeout', /no answer within 300 ms/],
      [[{ content: 'Sure! Here is JSON: {' }], 'invalid_json', /not JSON/],
      [[{ content: JSON.stringify({ intent: 'poetry', note: '' }) }], 'invalid_answer', /intent: Invalid option/],
      [[{ refusal: 'I cannot help with that' }], 'refused', /refused: I cannot/],
      [[{ content: '{"intent": "feat', finishReason: 'length' }], 'invalid_json', /cut off/],
    ];
    for (const [script, kind, message] of cases) {
      server.script(script);
      const before = server.requests.length;
      const error = await client()
        .client.complete(request)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).kind).toBe(kind);
      expect((error as LlmError).message).toMatch(message);
      expect(server.requests.length - before).toBe(2);
    }
  });

  it('retries a 5xx but not a 401', async () => {
    server.script([{ status: 503 }, { content: JSON.stringify({ intent: 'feature', note: 'ok' }) }]);
    await expect(client().client.complete(request)).resolves.toMatchObject({ intent: 'feature' });
    server.script([{ status: 401 }]);
    const before = server.requests.length;
    const error = (await client()
      .client.complete(request)
      .catch((e: unknown) => e)) as LlmError;
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(server.requests.length - before).toBe(1);
  });

  it('stops at the token budget without sending', async () => {
    server.script([{ content: JSON.stringify({ intent: 'feature', note: 'a' }), usage: { prompt_tokens: 90, completion_tokens: 30 } }]);
    const { client: llm } = client({ budgetTokens: 100 });
    await llm.complete(request);
    const before = server.requests.length;
    await expect(llm.complete(request)).rejects.toMatchObject({ kind: 'budget' });
    expect(server.requests.length).toBe(before);
  });
});

describe('llmSlotFromEnv', () => {
  it('needs a model and a key or an endpoint', () => {
    expect(llmSlotFromEnv('small', {})).toBeUndefined();
    expect(llmSlotFromEnv('small', { LLM_SMALL_MODEL: 'm' })).toBeUndefined();
    expect(llmSlotFromEnv('small', { LLM_SMALL_MODEL: 'm', LLM_SMALL_API_KEY: 'k' })).toEqual({ slot: 'small', provider: 'openai', model: 'm', apiKey: 'k' });
    expect(
      llmSlotFromEnv('large', { LLM_LARGE_MODEL: ' big ', LLM_LARGE_BASE_URL: 'http://localhost:8000/v1', LLM_LARGE_PROVIDER: 'vllm', LLM_SMALL_MODEL: 'x' }),
    ).toEqual({
      slot: 'large',
      provider: 'vllm',
      model: 'big',
      apiKey: 'not-needed',
      baseUrl: 'http://localhost:8000/v1',
    });
  });

  it('logs endpoints without credentials or query', () => {
    expect(endpointForLog('https://user:pw@llm.example.com/v1/?key=abc')).toBe('llm.example.com/v1');
    expect(endpointForLog(undefined)).toBe('api.openai.com');
    expect(responseSchemaOf(z.strictObject({ a: z.array(z.string().min(1)).max(2) }))).toEqual({
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'string' } } },
      required: ['a'],
      additionalProperties: false,
    });
  });
});
