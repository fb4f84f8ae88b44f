import assert from 'node:assert/strict';
import { PlatformError } from '../../src/errors.ts';
import { silentLogger } from '../../src/logger.ts';
import type { PublishContext } from '../../src/platforms/types.ts';
import type { RetryPolicy } from '../../src/publish/retry.ts';

/** A retry policy with millisecond backoffs, so retry paths run in tests without waiting. */
export function fastRetries(budgetMs = 5_000): RetryPolicy {
  return { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, deadline: Date.now() + budgetMs };
}

/** The PlatformError a promise rejects with; fails the test when it resolves or throws anything else. */
export async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    return error;
  }
  assert.fail('expected a PlatformError');
}

/** A publish context for tests: a fresh idempotency key for `accountId` unless `overrides` sets one. */
export function testPublishContext(
  accountId: string,
  overrides: Partial<PublishContext> = {},
  timeoutMs = 20_000,
): PublishContext {
  return {
    signal: AbortSignal.timeout(timeoutMs),
    idempotencyKey: `post-${Math.random()}:${accountId}`,
    logger: silentLogger,
    ...overrides,
  };
}
