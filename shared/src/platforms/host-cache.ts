import { isPlatformError } from '../errors.ts';

/**
 * What a user-chosen server says about itself (its limits), per origin, kept for a while: an admin
 * changes them rarely. A failed read is not cached (the next post asks again) and yields the
 * platform's defaults with `fromServer: false`, so validation can warn instead of guessing.
 */
export class HostCache<T> {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  async get(origin: string, read: () => Promise<T>, fallback: T): Promise<{ value: T; fromServer: boolean }> {
    const now = Date.now();
    let entry = this.#entries.get(origin);
    if (!entry || entry.expires <= now) {
      entry = { value: read(), expires: now + this.#ttlMs };
      this.#entries.set(origin, entry);
    }
    try {
      return { value: await entry.value, fromServer: true };
    } catch (error) {
      if (this.#entries.get(origin) === entry) this.#entries.delete(origin);
      if (!isPlatformError(error)) throw error;
      return { value: fallback, fromServer: false };
    }
  }
}
