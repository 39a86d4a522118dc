// How a failure that names its own retry delay (a code host's Retry-After) reaches Temporal: an
// ApplicationFailure of the same type with that delay, never shorter than the policy's backoff
// and never longer than its longest interval; other failures pass unchanged.
import { ApplicationFailure } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import { GitHubFeedbackError } from '@codehealth/service';
import { ACTIVITY_RETRY } from '../workflows/retry.js';
import { withRequestedDelay } from './temporal-worker.js';

describe('withRequestedDelay', () => {
  it('turns a Retry-After into the next retry delay of a failure of the same type', () => {
    const failure = withRequestedDelay(new GitHubFeedbackError('GitHub could not list the check runs: rate limited', 429, 7_000), 1) as ApplicationFailure;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect([failure.type, failure.message, failure.nextRetryDelay, failure.nonRetryable]).toEqual([
      'UnavailableError',
      'GitHub could not list the check runs: rate limited',
      7_000,
      false,
    ]);
  });

  it('keeps the backoff when GitHub asks for less, and caps a long reset at the longest interval', () => {
    expect((withRequestedDelay(new GitHubFeedbackError('x', 429, 0.5), 2) as ApplicationFailure).nextRetryDelay).toBe(
      ACTIVITY_RETRY.initialIntervalMs * ACTIVITY_RETRY.backoffCoefficient,
    );
    expect((withRequestedDelay(new GitHubFeedbackError('x', 403, 3_600_000), 1) as ApplicationFailure).nextRetryDelay).toBe(ACTIVITY_RETRY.maximumIntervalMs);
  });

  it('passes other failures unchanged', () => {
    const plain = new Error('boom');
    expect(withRequestedDelay(plain, 1)).toBe(plain);
    const noDelay = new GitHubFeedbackError('GitHub could not update the check run: unavailable (502)', 502, undefined);
    expect(withRequestedDelay(noDelay, 1)).toBe(noDelay);
  });
});
