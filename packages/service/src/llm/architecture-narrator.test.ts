// The architecture review narrative by the large model slot, through the production `openai`
// client against a local OpenAI-compatible server, on a real review of a small repository: only
// computed facts are sent (no code), a grounded narrative is used, and every failure — timeout,
// invalid answer, numbers or files the review does not contain — keeps the computed summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../test/infra/fake-openai.js';
import type { ArchitectureReviewResult } from '../api/architecture.js';
import { createEngine } from '@codehealth/engine';
import { reviewArchitecture } from '../services/architecture-review.js';
import { writeArchitectureRepo } from '../services/fixtures/architecture-repo.js';
import { MAX_NARRATIVE_CHARS, narrateArchitectureReview, ungroundedClaims } from './architecture-narrator.js';
import { OpenAiJsonClient } from './openai-json-client.js';
import { architectureFacts } from './prompts.js';

let server: FakeOpenAi;
let review: ArchitectureReviewResult;
const log: string[] = [];
const client = () =>
  new OpenAiJsonClient(
    { slot: 'large', provider: 'fake', model: 'big-1', apiKey: 'sk-large-secret-999', baseUrl: server.baseUrl },
    { timeoutMs: 300, log: (line) => log.push(line) },
  );
const GROUNDED =
  'The code is split into 10 components with 2 import cycles at run time. The most pressing problem is the layering violation: ' +
  'src/db imports src/api through orders-repo.ts, against the dominant direction, which ties persistence to the HTTP layer. ' +
  'Break the cycle between src/cycle/a.ts and src/cycle/b.ts next, then look at the unstable dependency of src/util.';

beforeAll(async () => {
  server = await startFakeOpenAi();
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  review = reviewArchitecture(await engine.analyze(writeArchitectureRepo()));
});
afterAll(() => server.close());

describe('narrateArchitectureReview', () => {
  it('sends the computed facts without code and uses a grounded narrative', async () => {
    expect(review.metrics.components).toBe(10);
    expect(review.metrics.runtime_import_cycles).toBe(2);
    server.script([{ content: JSON.stringify({ narrative: GROUNDED }) }]);
    const before = server.requests.length;
    const narration = await narrateArchitectureReview(client(), review, { log: (line) => log.push(line) });
    expect(narration).toMatchObject({ method: 'llm', model: 'fake/big-1' });
    expect(narration.summary).toBe(`${GROUNDED} (Narrative by the large model fake/big-1 from the review's computed findings and metrics.)`);
    expect(narration.summary.length).toBeLessThanOrEqual(MAX_NARRATIVE_CHARS);

    const body = server.requests[before]!.body;
    expect(body.response_format).toMatchObject({ json_schema: { name: 'architecture_review_narrative', strict: true } });
    const user = (body.messages as Array<{ content: string }>)[1]!.content;
    const sent = JSON.parse(user);
    expect(sent.metrics).toMatchObject({ components: 10, runtime_import_cycles: 2, layering_violations: 1 });
    expect(sent.findings_total).toBe(review.findings.length);
    expect(sent.findings_by_rule['architecture/import-cycle']).toBe(3);
    // Findings travel without their code snippets: no import statement is sent.
    expect(user).not.toContain("import '../api/routes.js'");
    expect(user).not.toMatch(/code_snippet|import \{/);
    expect(log.join('\n')).not.toContain('sk-large-secret');
  });

  it('keeps the computed summary when the narrative names numbers or files the review does not hold', async () => {
    for (const [narrative, claim] of [
      [GROUNDED.replace('10 components', '13 components'), '13'],
      [GROUNDED.replace('orders-repo.ts', 'payments-gateway.ts'), 'payments-gateway.ts'],
    ] as const) {
      server.script([{ content: JSON.stringify({ narrative }) }]);
      const narration = await narrateArchitectureReview(client(), review);
      expect(narration).toMatchObject({ summary: review.summary, method: 'rules', model: 'fake/big-1' });
      expect(narration.fallbackReason).toBe(`ungrounded: ${claim} not in the review's facts`);
    }
  });

  it('keeps the computed summary on a timeout, an invalid answer or without a model', async () => {
    server.script([{ delayMs: 2_000 }]);
    await expect(narrateArchitectureReview(client(), review)).resolves.toMatchObject({
      summary: review.summary,
      method: 'rules',
      fallbackReason: 'timeout: no answer within 300 ms',
    });
    server.script([{ content: JSON.stringify({ narrative: 'x'.repeat(1500) }) }]);
    const tooLong = await narrateArchitectureReview(client(), review);
    expect(tooLong.method).toBe('rules');
    expect(tooLong.fallbackReason).toMatch(/^invalid_answer: .*narrative/);
    server.script([{ content: 'The architecture is fine.' }]);
    await expect(narrateArchitectureReview(client(), review)).resolves.toMatchObject({
      method: 'rules',
      fallbackReason: expect.stringMatching(/^invalid_json/),
    });
    const before = server.requests.length;
    await expect(narrateArchitectureReview(undefined, review)).resolves.toEqual({ summary: review.summary, method: 'rules' });
    expect(server.requests.length).toBe(before);
  });
});

describe('ungroundedClaims', () => {
  it("accepts the facts' numbers (also as percentages) and files by suffix, and names the rest", () => {
    const facts = { metrics: { modules: 14, average_instability: 0.456 }, findings: [{ title: 'Hub module: src/core/index.ts is imported by 12 modules' }] };
    expect(ungroundedClaims('14 modules, instability 0.46 (46%), index.ts and src/core/index.ts with 12 importers; Node.js and ES2015 aside.', facts)).toEqual(
      [],
    );
    expect(ungroundedClaims('15 modules; see src/core/main.ts and 0.9.', facts)).toEqual(['src/core/main.ts', '15', '0.9']);
    expect(architectureFacts(review).findings).toHaveLength(review.findings.length);
  });
});
