// A small real HTTP server speaking OpenAI's `/v1/chat/completions` protocol on loopback, for
// tests of the LLM path (no model can be downloaded here). Replies are scripted in order (the
// last one repeats): a chat.completion carrying `content`, an HTTP error, a delay (to provoke
// client timeouts) or a raw body. Every request is recorded with its headers and parsed body.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  /** Assistant message content (a JSON string for structured outputs). */
  content?: string;
  /** HTTP status other than 200: an OpenAI-style error body is sent. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** `length` simulates an answer cut off at the token limit. */
  finishReason?: 'stop' | 'length';
  refusal?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeOpenAi {
  /** Base URL to configure (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replaces the script. */
  script(replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAi(replies: ScriptedReply[] = []): Promise<FakeOpenAi> {
  let script = [...replies];
  let served = 0;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        // recorded as empty: the test asserting on it will say so
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return send(404, { error: { message: `no route ${req.url}`, type: 'invalid_request_error' } });
      const reply = script[Math.min(served++, script.length - 1)] ?? { content: '{}' };
      const answer = () => {
        if (reply.status && reply.status !== 200)
          return send(reply.status, { error: { message: `scripted ${reply.status}`, type: 'server_error', code: null } });
        const usage = reply.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
        send(200, {
          id: `chatcmpl-${served}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply.refusal ? null : (reply.content ?? ''), refusal: reply.refusal ?? null },
              finish_reason: reply.finishReason ?? 'stop',
              logprobs: null,
            },
          ],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        });
      };
      if (reply.delayMs) {
        const timer = setTimeout(answer, reply.delayMs);
        res.on('close', () => clearTimeout(timer));
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(next) {
      script = [...next];
      served = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
