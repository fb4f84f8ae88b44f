import { PlatformError, toPlatformError } from '../errors.ts';

export interface RetryPolicy {
  /** Attempts in all, including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Absolute time (ms since epoch) after which no new attempt starts. */
  deadline: number;
}

export const defaultRetryPolicy = (): RetryPolicy => ({
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  deadline: Date.now() + 60_000,
});

/**
 * Runs `attempt` until it succeeds, fails permanently, or the policy runs out. Waits follow
 * exponential backoff with full jitter, except that a platform's Retry-After wins. A wait that
 * would pass the deadline is not started: the last error is returned instead.
 */
export async function withRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  random: () => number = Math.random,
  onRetry?: (error: PlatformError, attemptNumber: number) => void | Promise<void>,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (thrown) {
      const error = toPlatformError(thrown);
      if (!error.retryable || n >= policy.maxAttempts || signal?.aborted) throw error;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1)) * random();
      const wait = error.retryAfterMs ?? backoff;
      if (Date.now() + wait >= policy.deadline) throw error;
      // This call failed and another follows: the caller may record it (the post's timeline).
      await onRetry?.(error, n);
      // Cancelled while waiting: the platform's error says more than "cancelled" would.
      await sleep(wait, signal).catch(() => {
        throw error;
      });
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new PlatformError('timeout', 'Cancelled', { retryable: false }));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new PlatformError('timeout', 'Cancelled', { retryable: false }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
