// The LLM classification path end to end: a real git change, the real `openai` client, and a
// local chat-completions server. The model's answer is used when valid; a timeout, invalid JSON
// or an answer outside the schema falls back to the rules, and the summary says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../test/infra/fake-openai.js';
import { OpenAiJsonClient } from '../llm/openai-json-client.js';
import { readPullRequestChange, type PullRequestChange } from '@codehealth/engine/internal';
import { classifyPullRequest } from '@codehealth/engine/internal';

const pr = { title: 'Multiplication', body: 'Adds mul() for the calculator.', headBranch: 'topic', baseBranch: 'main' };
let server: FakeOpenAi;
let change: PullRequestChange;

beforeAll(async () => {
  server = await startFakeOpenAi();
  const repo = createGitRepo({ 'src/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n' });
  const base = repo.git('rev-parse', 'HEAD');
  repo.write({
    'src/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function mul(a: number, b: number) {\n  return a * b;\n}\n',
  });
  change = await readPullRequestChange(repo.root, base, repo.commit('add mul'));
});
afterAll(() => server.close());

const llm = () => new OpenAiJsonClient({ slot: 'small', provider: 'fake', model: 'tiny-1', apiKey: 'sk-test', baseUrl: server.baseUrl }, { timeoutMs: 300 });

describe('classifyPullRequest', () => {
  it('without a model uses the rules', async () => {
    const outcome = await classifyPullRequest(pr, change);
    expect(outcome).toMatchObject({ method: 'rules', classification: { primary_intent: 'feature' } });
    expect(outcome.model).toBeUndefined();
  });

  it("uses a valid answer, keeping the computed categories and risk signals and adding the model's as its own", async () => {
    server.script([
      {
        content: JSON.stringify({
          primary_intent: 'feature',
          secondary_intents: ['feature', 'test'],
          summary: 'Adds a mul() function next to add()',
          additional_risk_signals: ['mul has no overflow handling', 'no tests for changed source: src/math.ts'],
        }),
      },
    ]);
    const before = server.requests.length;
    const lines: string[] = [];
    const outcome = await classifyPullRequest(pr, change, llm(), (line) => lines.push(line));
    expect(outcome.method).toBe('llm');
    expect(outcome.classification).toEqual({
      primary_intent: 'feature',
      secondary_intents: ['test'],
      change_categories: ['source'],
      risk_signals: ['no tests for changed source: src/math.ts', 'model-reported: mul has no overflow handling'],
      summary: 'Adds a mul() function next to add(). Classified by the small model fake/tiny-1.',
    });
    expect(lines).toEqual(['classification: feature by fake/tiny-1 (rules said feature)']);
    // The prompt carries the facts, not file contents.
    const prompt = JSON.parse((server.requests[before]!.body.messages as Array<{ content: string }>)[1]!.content);
    expect(prompt).toMatchObject({
      title: 'Multiplication',
      description: 'Adds mul() for the calculator.',
      exports: { added: ['mul'], removed: [], signature_changed: [] },
      rule_based_guess: { primary_intent: 'feature' },
    });
    expect(prompt.files[0]).toMatchObject({ path: 'src/math.ts', status: 'modified', additions: 4, symbols: ['added exported function mul'] });
    expect(JSON.stringify(prompt)).not.toContain('return a * b');
  });

  it('falls back to the rules on a timeout, invalid JSON or an answer outside the schema, and says so', async () => {
    const cases = [
      { script: [{ delayMs: 2_000 }], reason: 'timeout' },
      { script: [{ content: 'feature, I think' }], reason: 'invalid_json' },
      {
        script: [{ content: JSON.stringify({ primary_intent: 'improvement', secondary_intents: [], summary: 'x', additional_risk_signals: [] }) }],
        reason: 'invalid_answer',
      },
    ];
    for (const { script, reason } of cases) {
      server.script(script);
      const before = server.requests.length;
      const outcome = await classifyPullRequest(pr, change, llm());
      expect(server.requests.length - before).toBe(2); // one retry
      expect(outcome.method).toBe('rules');
      expect(outcome.fallbackReason).toBeTruthy();
      expect(outcome.classification.primary_intent).toBe('feature');
      expect(outcome.classification.summary).toContain(`Classified by rules (model fake/tiny-1 not used: ${reason}) from 1 new exported symbol(s).`);
    }
  });
});
