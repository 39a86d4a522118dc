// The diff review by the large model slot, through the production `openai` client against a local
// OpenAI-compatible server, on a real git diff: what is sent (hunks only, credentials masked,
// within the budget), which answers are kept or dropped, quote validation both ways, and the
// failures that yield no findings with a reason.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../test/infra/fake-openai.js';
import { readPullRequestDiff } from '@codehealth/engine/internal';
import type { PullRequestDiff } from '@codehealth/engine/internal';
import { issueFingerprint } from '@codehealth/engine';
import { headFilesOf, reviewDiffWithLlm, type LlmDiffFinding, type ReviewFile } from './diff-review-agent.js';
import { OpenAiJsonClient } from './openai-json-client.js';

const AWS_KEY = 'AKIA' + 'QX7PLM2ZK4RTV9WN';
/** 40 numbered lines whose text must never reach the model unless they sit next to a change. */
const filler = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `export const ${prefix}_${from + i} = ${from + i};`).join('\n');
const CART_BASE = `${filler('UNCHANGED_TOP', 1, 20)}\nexport function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n${filler('UNCHANGED_BOTTOM', 24, 45)}\n`;
// Head: line 22 changes (qty dropped: a bug) and a function follows; git reports lines 22-25 as one hunk.
const CART_HEAD = CART_BASE.replace('sum + item.price * item.qty', 'sum + item.price').replace(
  'export const UNCHANGED_BOTTOM_24 = 24;',
  `export function average(items: number[]): number {\n  return items.reduce((a, b) => a + b) / items.length;\n}\nexport const UNCHANGED_BOTTOM_24 = 24;`,
);

let server: FakeOpenAi;
let repo: TestRepo;
let diff: PullRequestDiff;
let files: ReviewFile[];
const lines: string[] = [];
const client = () =>
  new OpenAiJsonClient(
    { slot: 'large', provider: 'fake', model: 'big-1', apiKey: 'sk-large-secret-999', baseUrl: server.baseUrl },
    { timeoutMs: 300, log: (line) => lines.push(line) },
  );
const finding = (over: Partial<LlmDiffFinding>): LlmDiffFinding => ({
  file: 'src/cart.ts',
  line_start: 22,
  line_end: 22,
  severity: 'high',
  category: 'runtime',
  title: 'Quantity ignored in total',
  description: 'The total adds the price once per item, whatever its quantity.',
  why_it_matters: 'Orders with several units are undercharged.',
  suggested_action: 'Multiply the price by item.qty again.',
  confidence: 85,
  quoted_code: 'return items.reduce((sum, item) => sum + item.price, 0);',
  ...over,
});
const answer = (...findings: LlmDiffFinding[]) => [{ content: JSON.stringify({ findings }) }];
const userMessageOf = (n: number) => (server.requests[n]!.body.messages as Array<{ role: string; content: string }>)[1]!.content;

beforeAll(async () => {
  server = await startFakeOpenAi();
  repo = createGitRepo({
    'src/cart.ts': CART_BASE,
    'src/util.ts': "export const UTIL_UNCHANGED = 'never sent';\n",
    'README.md': '# shop\n',
    'src/old.ts': 'export const OLD = 1;\n',
  });
  const base = repo.git('rev-parse', 'HEAD');
  repo.write({ 'src/cart.ts': CART_HEAD, 'README.md': '# shop\n\nREADME_CHANGED_LINE\n', 'src/aws.ts': `export const ACCESS_KEY_ID = '${AWS_KEY}';\n` });
  repo.git('rm', '-q', 'src/old.ts');
  const head = repo.commit('feat: averages');
  diff = await readPullRequestDiff(repo.root, base, head);
  files = await headFilesOf(repo.root, diff);
});
afterAll(() => server.close());

describe('reviewDiffWithLlm', () => {
  it('sends only the changed hunks with 3 lines of context, credentials masked, and a strict schema', async () => {
    server.script(answer());
    const before = server.requests.length;
    const result = await reviewDiffWithLlm(client(), { diff, files });
    expect(result.reason).toBeUndefined();
    const body = server.requests[before]!.body;
    expect(body.model).toBe('big-1');
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'pr_diff_review', strict: true } });
    const user = userMessageOf(before);
    expect(user).toContain('=== src/cart.ts (modified) ===');
    expect(user).toContain('22 +   return items.reduce((sum, item) => sum + item.price, 0);');
    expect(user).toContain('24 + export function average(items: number[]): number {');
    expect(user).toContain('19   export const UNCHANGED_TOP_19 = 19;'); // context: 3 lines before line 22
    expect(user).toContain('28   export const UNCHANGED_BOTTOM_25 = 25;'); // 3 lines after the hunk
    // Nothing beyond the context lines, no unchanged file, no docs, no deleted file.
    expect(user).not.toContain('UNCHANGED_TOP_18 ');
    expect(user).not.toContain('UNCHANGED_BOTTOM_26 ');
    expect(user).not.toMatch(/UNCHANGED_TOP_1 |UNCHANGED_BOTTOM_45/);
    expect(user).not.toContain('UTIL_UNCHANGED');
    expect(user).not.toContain('README_CHANGED_LINE');
    expect(user).not.toContain('OLD = 1');
    // The committed key is masked before it leaves.
    expect(user).toContain("1 + export const ACCESS_KEY_ID = 'AKIA************';");
    expect(JSON.stringify(body)).not.toContain(AWS_KEY);
    expect(result.sent).toEqual({ files: 2, hunks: 2, chars: user.length });
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { path: 'README.md', reason: 'not reviewed (documentation)' },
        { path: 'src/old.ts', reason: 'deleted' },
      ]),
    );
    expect(lines.join('\n')).not.toContain('sk-large-secret');
    expect(
      lines.some((line) =>
        /^llm large: pr_diff_review -> fake\/big-1 at 127\.0\.0\.1:\d+\/v1: system \d+ chars, user \d+ chars, max 4000 output tokens/.test(line),
      ),
    ).toBe(true);
  });

  it('keeps findings on changed lines, validates their quotes, and drops hallucinated files and lines', async () => {
    server.script(
      answer(
        finding({}),
        finding({
          line_start: 25,
          line_end: 25,
          category: 'runtime',
          severity: 'medium',
          title: 'Empty array throws',
          quoted_code: 'items.reduce((a, b) => a + b) / items.length',
          confidence: 70,
        }),
        finding({
          line_start: 24,
          line_end: 25,
          category: 'code_smell',
          severity: 'low',
          title: 'Made-up quote',
          quoted_code: 'const average = compute(items)',
          confidence: 90,
        }),
        finding({ file: 'src/payments.ts', title: 'Hallucinated file' }),
        finding({ line_start: 5, line_end: 6, title: 'Far from the change', quoted_code: 'export const UNCHANGED_TOP_5 = 5;' }),
        finding({ line_start: 40, line_end: 44, title: 'Past the end' }),
        finding({ file: 'README.md', line_start: 3, line_end: 3, title: 'Docs are not sent' }),
      ),
    );
    const result = await reviewDiffWithLlm(client(), { diff, files });
    expect(result.findings.map((f) => [f.title, f.anchor.lineStart, f.anchor.validated, f.confidence])).toEqual([
      ['Quantity ignored in total', 22, true, 85],
      ['Empty array throws', 25, true, 70],
      ['Made-up quote', 24, false, 40],
    ]);
    const [kept, , unvalidated] = result.findings;
    expect(kept).toMatchObject({
      source: 'llm_agent',
      ruleId: 'llm/runtime',
      analyzerName: 'llm-agent',
      category: 'runtime',
      severity: 'high',
      filePath: 'src/cart.ts',
      fileGroup: 'src',
      symbol: 'total',
      autoFixable: false,
      anchor: { lineStart: 22, lineEnd: 22, codeSnippet: '  return items.reduce((sum, item) => sum + item.price, 0);', validated: true },
    });
    // Not validated: the snippet is the real text of those lines, not the model's quote.
    expect(unvalidated!.anchor.codeSnippet).toBe('export function average(items: number[]): number {\n  return items.reduce((a, b) => a + b) / items.length;');
    expect(unvalidated!.symbol).toBe('average');
    expect(result.dropped).toEqual([
      { file: 'src/payments.ts', lineStart: 22, lineEnd: 22, reason: 'file is not in the diff' },
      { file: 'src/cart.ts', lineStart: 5, lineEnd: 6, reason: 'lines outside the changed hunks' },
      { file: 'src/cart.ts', lineStart: 40, lineEnd: 44, reason: 'lines outside the changed hunks' },
      { file: 'README.md', lineStart: 3, lineEnd: 3, reason: 'file was not sent' },
    ]);
  });

  it('gives the same fingerprint to the same finding on another run, even when the model cuts its quote differently', async () => {
    server.script(answer(finding({})));
    const first = (await reviewDiffWithLlm(client(), { diff, files })).findings[0]!;
    server.script(answer(finding({ quoted_code: 'sum + item.price', confidence: 60 })));
    const second = (await reviewDiffWithLlm(client(), { diff, files })).findings[0]!;
    expect(second.anchor.validated).toBe(true);
    expect(issueFingerprint(second)).toBe(issueFingerprint(first));
  });

  it('stays within the character budget and says what it left out', async () => {
    server.script(
      answer(finding({}), finding({ line_start: 25, line_end: 25, title: 'Empty array throws', quoted_code: 'return items.reduce((a, b) => a + b);' })),
    );
    const before = server.requests.length;
    const result = await reviewDiffWithLlm(client(), { diff, files, budget: { maxPromptChars: 520 } });
    const user = userMessageOf(before);
    expect(user.length).toBeLessThanOrEqual(520);
    expect(user).toContain('=== src/aws.ts (added) ===');
    expect(user).toContain('22 +   return items.reduce');
    expect(user).not.toContain('24 + export function average');
    expect(user).toContain('(Budget reached: 1 file not or only partly sent; review what is shown.)');
    expect(result.skipped).toContainEqual({ path: 'src/cart.ts', reason: expect.stringMatching(/^budget: cut at line 2[2-4]$/) });
    // The finding on a hunk that was not sent is dropped like any other outside the sent hunks.
    expect(result.findings.map((f) => f.title)).toEqual(['Quantity ignored in total']);
    expect(result.dropped).toEqual([{ file: 'src/cart.ts', lineStart: 25, lineEnd: 25, reason: 'lines outside the changed hunks' }]);

    server.script(answer(finding({})));
    const tiny = await reviewDiffWithLlm(client(), { diff, files, budget: { maxPromptChars: 300 } });
    expect(tiny.skipped).toContainEqual({ path: 'src/cart.ts', reason: 'budget: not sent' });
    expect(tiny.sent.files).toBe(1);
    expect(tiny.findings).toEqual([]);
    expect(tiny.dropped).toEqual([{ file: 'src/cart.ts', lineStart: 22, lineEnd: 22, reason: 'file was not sent' }]);
  });

  it('returns no findings and the reason on a timeout or an invalid answer, after one retry', async () => {
    for (const [reply, reason] of [
      [{ delayMs: 2_000 }, /^timeout: no answer within 300 ms$/],
      [{ content: 'I found these issues: ...' }, /^invalid_json: the answer is not JSON/],
      [{ content: JSON.stringify({ findings: [{ ...finding({}), severity: 'blocker' }] }) }, /^invalid_answer: .*findings\.0\.severity/],
    ] as const) {
      server.script([reply]);
      const before = server.requests.length;
      const result = await reviewDiffWithLlm(client(), { diff, files });
      expect(result.findings).toEqual([]);
      expect(result.reason).toMatch(reason);
      expect(server.requests.length - before).toBe(2);
    }
  });

  it('asks nothing when no reviewable line changed', async () => {
    const docsOnly: PullRequestDiff = { ...diff, files: diff.files.filter((f) => f.path === 'README.md' || f.path === 'src/old.ts') };
    const before = server.requests.length;
    const result = await reviewDiffWithLlm(client(), { diff: docsOnly, files });
    expect(result).toMatchObject({ findings: [], reason: 'no reviewable changed lines (nothing sent)', sent: { files: 0, hunks: 0 } });
    expect(server.requests.length).toBe(before);
  });
});

describe('headFilesOf', () => {
  it('sends a model no file reached through a symbolic link, least of all one leading out of the repository', async () => {
    const outside = createGitRepo({ 'secret.ts': "export const TOKEN = 'OUTSIDE-SECRET-11m';\n" });
    const linked = createGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const base = linked.git('rev-parse', 'HEAD');
    linked.write({ 'src/a.ts': 'export const a = 2;\n' });
    symlinkSync(join(outside.root, 'secret.ts'), join(linked.root, 'src', 'leak.ts'));
    symlinkSync('a.ts', join(linked.root, 'src', 'alias.ts'));
    const head = linked.commit('feat: links');
    const linkedDiff = await readPullRequestDiff(linked.root, base, head);
    expect(linkedDiff.files.map((f) => f.path).sort()).toEqual(['src/a.ts', 'src/alias.ts', 'src/leak.ts']);
    const sent = await headFilesOf(linked.root, linkedDiff);
    expect(sent.map((f) => [f.path, f.headText])).toEqual([['src/a.ts', 'export const a = 2;\n']]);
    expect(JSON.stringify(sent)).not.toContain('OUTSIDE-SECRET');
  });
});
