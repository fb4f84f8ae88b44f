import type { ClaimResult, IdempotencyStore, KeyRef, StoredResponse } from './store.ts';

type Entry =
  | { fingerprint: string; state: 'in_progress' }
  | { fingerprint: string; state: 'completed'; response: StoredResponse; expiresAt: number };

/**
 * Keys in this process's memory: bounded, least recently used answers dropped first past
 * `maxEntries`, all forgotten on restart. A claim in progress is never dropped, so a duplicate
 * cannot slip past a request that is still publishing.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive whole number');
    }
    this.#maxEntries = maxEntries;
  }

  async claim(ref: KeyRef, fingerprint: string, now: Date): Promise<ClaimResult> {
    const id = entryId(ref);
    const entry = this.#entries.get(id);
    if (entry?.state === 'in_progress') return { state: 'in_progress', fingerprint: entry.fingerprint };
    if (entry && entry.expiresAt > now.getTime()) {
      // Touch: a replayed answer counts as recently used.
      this.#entries.delete(id);
      this.#entries.set(id, entry);
      return { state: 'completed', fingerprint: entry.fingerprint, response: entry.response };
    }
    this.#entries.delete(id);
    this.#entries.set(id, { fingerprint, state: 'in_progress' });
    return { state: 'claimed' };
  }

  async complete(ref: KeyRef, response: StoredResponse, expiresAt: Date): Promise<void> {
    const id = entryId(ref);
    const entry = this.#entries.get(id);
    if (entry?.state !== 'in_progress') return;
    this.#entries.delete(id);
    this.#entries.set(id, {
      fingerprint: entry.fingerprint,
      state: 'completed',
      response,
      expiresAt: expiresAt.getTime(),
    });
    this.#evict();
  }

  async release(ref: KeyRef): Promise<void> {
    const id = entryId(ref);
    if (this.#entries.get(id)?.state === 'in_progress') this.#entries.delete(id);
  }

  /** Remembered answers and claims in progress. */
  get size(): number {
    return this.#entries.size;
  }

  #evict(): void {
    if (this.#entries.size <= this.#maxEntries) return;
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries) break;
      if (entry.state === 'completed') this.#entries.delete(id);
    }
  }
}

function entryId(ref: KeyRef): string {
  return `${ref.scope}\n${ref.key}`;
}
