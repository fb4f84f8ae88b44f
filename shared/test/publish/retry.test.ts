import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../src/errors.ts';
import { type RetryPolicy, withRetry } from '../../src/publish/retry.ts';
import { rejection } from '../support/platform-testing.ts';

const policy = (overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({
  maxAttempts: 4,
  baseDelayMs: 5,
  maxDelayMs: 20,
  deadline: Date.now() + 5_000,
  ...overrides,
});

/** An attempt function that fails with `errors` in turn, then succeeds; records when each attempt started. */
function scripted(errors: unknown[]) {
  const starts: number[] = [];
  const run = async (attempt: number) => {
    starts.push(Date.now());
    const error = errors[attempt - 1];
    if (error) throw error;
    return `ok after ${attempt}`;
  };
  return { run, starts };
}

const unavailable = () => new PlatformError('platform_unavailable', 'down');

describe('withRetry', () => {
  it('returns the first success after retryable failures', async () => {
    const { run, starts } = scripted([unavailable(), unavailable()]);
    assert.equal(await withRetry(run, policy()), 'ok after 3');
    assert.equal(starts.length, 3);
  });

  it('throws a permanent error at once', async () => {
    const { run, starts } = scripted([new PlatformError('content_rejected', 'no')]);
    const error = await rejection(withRetry(run, policy()));
    assert.equal(error.code, 'content_rejected');
    assert.equal(starts.length, 1);
  });

  it('treats unknown throws as permanent internal errors', async () => {
    const { run, starts } = scripted([new TypeError('bug')]);
    const error = await rejection(withRetry(run, policy()));
    assert.equal(error.code, 'internal');
    assert.equal(starts.length, 1);
  });

  it('stops after maxAttempts with the last error', async () => {
    const { run, starts } = scripted([unavailable(), unavailable(), new PlatformError('timeout', 'slow')]);
    const error = await rejection(withRetry(run, policy({ maxAttempts: 3 })));
    assert.equal(error.code, 'timeout');
    assert.equal(starts.length, 3);
  });

  it('waits what the platform asked (retryAfterMs) instead of the backoff', async () => {
    const { run, starts } = scripted([new PlatformError('rate_limited', 'slow down', { retryAfterMs: 150 })]);
    await withRetry(run, policy({ baseDelayMs: 1, maxDelayMs: 1 }));
    assert.ok(starts[1]! - starts[0]! >= 145, `waited ${starts[1]! - starts[0]!} ms`);
  });

  it('backs off exponentially up to maxDelayMs', async () => {
    const { run, starts } = scripted([unavailable(), unavailable(), unavailable()]);
    await withRetry(run, policy({ baseDelayMs: 40, maxDelayMs: 60 }), undefined, () => 1);
    const waits = starts.slice(1).map((t, i) => t - starts[i]!);
    assert.ok(waits[0]! >= 35, `first wait ${waits[0]}`);
    assert.ok(waits[1]! >= 55, `second wait ${waits[1]}`);
    // Uncapped it would be 160 ms.
    assert.ok(waits[2]! >= 55 && waits[2]! < 150, `third wait capped, got ${waits[2]}`);
  });

  it('does not start a wait that would pass the deadline', async () => {
    const { run, starts } = scripted([
      new PlatformError('rate_limited', 'wait a minute', { retryAfterMs: 60_000 }),
    ]);
    const began = Date.now();
    const error = await rejection(withRetry(run, policy({ deadline: Date.now() + 1_000 })));
    assert.equal(error.code, 'rate_limited');
    assert.equal(starts.length, 1);
    assert.ok(Date.now() - began < 500);
  });

  it('stops waiting when cancelled and reports the platform error', async () => {
    const controller = new AbortController();
    const { run, starts } = scripted([
      new PlatformError('rate_limited', 'slow down', { retryAfterMs: 2_000 }),
    ]);
    setTimeout(() => controller.abort(), 30);
    const began = Date.now();
    const error = await rejection(withRetry(run, policy(), controller.signal));
    assert.equal(error.code, 'rate_limited');
    assert.equal(starts.length, 1);
    assert.ok(Date.now() - began < 1_000);
  });

  it('does not retry once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { run, starts } = scripted([unavailable()]);
    await rejection(withRetry(run, policy(), controller.signal));
    assert.equal(starts.length, 1);
  });
});
