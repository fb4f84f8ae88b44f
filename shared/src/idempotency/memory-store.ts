import type { ClaimResult, IdempotencyStore, KeyRef, StoredResponse } from './store.ts';

interface Completed {
  fingerprint: string;
  response: StoredResponse;
  expiresAt: number;
}

/**
 * Keys in this process's memory: at most `maxEntries` answers, least recently used dropped first,
 * all forgotten on restart. Claims in progress are held apart and never dropped, so a duplicate
 * cannot slip past a request that is still publishing.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  /** Insertion order is recency: the first entry is the least recently used. */
  readonly #completed = new Map<string, Completed>();
  readonly #running = new Map<string, string>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive whole number');
    }
    this.#maxEntries = maxEntries;
  }

  async claim(ref: KeyRef, fingerprint: string, now: Date): Promise<ClaimResult> {
    const id = entryId(ref);
    const running = this.#running.get(id);
    if (running !== undefined) return { state: 'in_progress', fingerprint: running };
    const entry = this.#completed.get(id);
    if (entry) {
      this.#completed.delete(id);
      if (entry.expiresAt > now.getTime()) {
        this.#completed.set(id, entry);
        return { state: 'completed', fingerprint: entry.fingerprint, response: entry.response };
      }
    }
    this.#running.set(id, fingerprint);
    return { state: 'claimed' };
  }

  async complete(ref: KeyRef, response: StoredResponse, expiresAt: Date): Promise<void> {
    const id = entryId(ref);
    const fingerprint = this.#running.get(id);
    if (fingerprint === undefined) return;
    this.#running.delete(id);
    this.#completed.set(id, { fingerprint, response, expiresAt: expiresAt.getTime() });
    while (this.#completed.size > this.#maxEntries) {
      this.#completed.delete(this.#completed.keys().next().value as string);
    }
  }

  async release(ref: KeyRef): Promise<void> {
    this.#running.delete(entryId(ref));
  }

  /** Remembered answers (claims in progress not counted). */
  get size(): number {
    return this.#completed.size;
  }
}

function entryId(ref: KeyRef): string {
  return `${ref.scope}\n${ref.key}`;
}
