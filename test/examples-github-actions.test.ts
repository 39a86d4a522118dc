// The GitHub Actions example (examples/github-actions): the workflow parses, runs on pull requests
// with the history checked out, its review steps use only flags `codehealth review` accepts (parsed
// by the CLI's own parser), the gate is set, and the SARIF is uploaded with the permission it needs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseReviewArgs } from '../packages/cli/src/commands/review.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  'continue-on-error'?: boolean;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const workflow = parse(readFileSync(resolve(import.meta.dirname, '../examples/github-actions/codehealth-review.yml'), 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
/** The arguments after `codehealth review` / `@codehealth/cli review` of a run line, GitHub expressions replaced by a value. */
function reviewArgs(run: string): string[] {
  const words = run
    .replace(/\$\{\{[^}]*\}\}/g, 'main')
    .split(/>>/)[0]!
    .trim()
    .split(/\s+/);
  return words.slice(words.indexOf('review') + 1);
}

describe('examples/github-actions/codehealth-review.yml', () => {
  it('runs on pull requests with the whole history checked out', () => {
    expect(Object.keys(workflow.on)).toContain('pull_request');
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    expect(steps.indexOf(checkout!)).toBe(0);
  });

  it('reviews with flags the CLI accepts: a base, SARIF written to a file, and a gate', () => {
    const reviews = steps.filter((step) => step.run && /\bcodehealth\/cli review\b|\bcodehealth review\b/.test(step.run));
    expect(reviews.length).toBeGreaterThan(0);
    const parsed = reviews.map((step) => parseReviewArgs(reviewArgs(step.run!)));
    for (const args of parsed) expect(args.base).toBe('origin/main');
    const gated = parsed.find((args) => args.format === 'sarif');
    expect(gated).toMatchObject({ output: 'codehealth.sarif', gate: { failOn: 'high', failOnReadiness: 'blocked' } });
  });

  it('uploads the SARIF the review wrote, even when the gate failed, with the permission code scanning needs', () => {
    const upload = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.with?.sarif_file).toBe('codehealth.sarif');
    expect(upload?.if).toContain('always()');
    expect(workflow.permissions['security-events']).toBe('write');
    const gate = steps.findIndex((step) => step.run?.includes('--format sarif'));
    expect(steps.indexOf(upload!)).toBeGreaterThan(gate);
  });

  it('writes the Markdown summary also when the gate failed, without letting it decide the job', () => {
    const summary = steps.find((step) => step.run?.includes('--format markdown'));
    expect(summary?.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(summary?.if).toContain('always()');
    expect(summary?.['continue-on-error']).toBe(true);
    const gate = steps.find((step) => step.run?.includes('--format sarif'));
    expect(gate?.['continue-on-error']).toBeUndefined();
    expect(steps.indexOf(summary!)).toBeGreaterThan(steps.indexOf(gate!));
  });

  it("keeps the CLI's cache directory between runs, restored before the first review", () => {
    const cache = steps.find((step) => step.uses?.startsWith('actions/cache@'));
    expect(cache?.with?.path).toBe('~/.cache/codehealth');
    expect(String(cache?.with?.key)).toContain('${{ github.event.pull_request.base.sha }}');
    expect(cache?.with?.['restore-keys']).toBeDefined();
    const firstReview = steps.findIndex((step) => step.run?.includes(' review '));
    expect(steps.indexOf(cache!)).toBeLessThan(firstReview);
  });
});
