/**
 * What an earlier attempt of the same publish (same idempotency key) left behind, such as a
 * container id, so a retry after an unclear failure (the answer was lost) can find the post
 * instead of publishing it twice. In-process, bounded, entries expire.
 */
export class AttemptMemory<T> {
  readonly #entries = new Map<string, { value: T; expires: number }>();
  readonly #ttlMs: number;
  readonly #max: number;

  constructor(ttlMs = 60 * 60_000, max = 1000) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  get(key: string, now = Date.now()): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.expires < now) return undefined;
    return entry.value;
  }

  set(key: string, value: T, now = Date.now()): void {
    for (const [k, entry] of this.#entries) {
      if (entry.expires < now || this.#entries.size >= this.#max) this.#entries.delete(k);
    }
    this.#entries.set(key, { value, expires: now + this.#ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
