import { idempotencyWindowMs } from '@postwave/shared';

export interface StoredResponse {
  status: number;
  body: unknown;
}

interface Completed {
  fingerprint: string;
  response: StoredResponse;
  expiresAt: number;
}

interface Pending {
  fingerprint: string;
  done: Promise<StoredResponse | undefined>;
}

export type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'new'; finish: (response: StoredResponse | undefined) => void };

/**
 * Remembers publish responses by Idempotency-Key for 24 hours in memory, least recently used
 * first out past `maxEntries`. A request in progress is never evicted, so a concurrent duplicate
 * waits for the first one's answer instead of publishing again.
 */
export class IdempotencyStore {
  readonly #completed = new Map<string, Completed>();
  readonly #pending = new Map<string, Pending>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(maxEntries: number, now: () => number = Date.now) {
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  /**
   * Claims `key` for a request with this fingerprint, or says what the earlier one answered.
   * Whoever gets `new` must call `finish`: with the response to remember, or `undefined` to
   * release the key (the request was refused before anything was published).
   */
  async begin(key: string, fingerprint: string): Promise<IdempotencyOutcome> {
    for (;;) {
      const completed = this.#lookup(key);
      if (completed) {
        return completed.fingerprint === fingerprint
          ? { kind: 'replay', response: completed.response }
          : { kind: 'conflict' };
      }
      const pending = this.#pending.get(key);
      if (!pending) break;
      if (pending.fingerprint !== fingerprint) return { kind: 'conflict' };
      const response = await pending.done;
      if (response) return { kind: 'replay', response };
      // The first request was refused and released the key: try again from the top.
    }
    let resolve!: (response: StoredResponse | undefined) => void;
    const done = new Promise<StoredResponse | undefined>((r) => {
      resolve = r;
    });
    this.#pending.set(key, { fingerprint, done });
    return {
      kind: 'new',
      finish: (response) => {
        this.#pending.delete(key);
        if (response)
          this.#remember(key, { fingerprint, response, expiresAt: this.#now() + idempotencyWindowMs });
        resolve(response);
      },
    };
  }

  get size(): number {
    return this.#completed.size;
  }

  #lookup(key: string): Completed | undefined {
    const entry = this.#completed.get(key);
    if (!entry) return undefined;
    this.#completed.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#completed.set(key, entry);
    return entry;
  }

  #remember(key: string, entry: Completed): void {
    this.#completed.delete(key);
    this.#completed.set(key, entry);
    while (this.#completed.size > this.#maxEntries) {
      const oldest = this.#completed.keys().next().value as string;
      this.#completed.delete(oldest);
    }
  }
}
