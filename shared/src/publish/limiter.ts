import pLimit, { type LimitFunction } from 'p-limit';

/** One concurrency limit per platform, shared by every post this process publishes. */
export class PlatformLimiter {
  readonly #limits = new Map<string, LimitFunction>();

  run<T>(platform: string, concurrency: number, task: () => Promise<T>): Promise<T> {
    let limit = this.#limits.get(platform);
    if (!limit) {
      limit = pLimit(concurrency);
      this.#limits.set(platform, limit);
    }
    return limit(task);
  }
}
