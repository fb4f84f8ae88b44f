/**
 * Where publish limits keep their state. Every limit is "at most `limit` live grants per key": a
 * concurrency slot lives until it is released, a rate grant lives `windowMs` from when it was taken
 * (so at most `limit` publishes start in any window of that length: a sliding log, not a bucket
 * that allows twice the rate across a refill). The default store is this process's memory; the
 * Scheduler on PostgreSQL keeps grants in the database so several instances share one limit.
 */
export interface LimitRequest {
  /** Who shares the limit (a bot, a chat, a platform): an opaque id, never a secret. */
  key: string;
  /** How many grants of `key` may be live at once. */
  limit: number;
  /** A rate limit: each grant lives this long (ms) whether or not it is released. Absent: a slot. */
  windowMs?: number;
}

export interface LimitGrant {
  /** Gives the slots back (rate grants run out on their own). Never throws; idempotent. */
  release(): Promise<void> | void;
}

export type LimitAttempt =
  | { granted: true; grant: LimitGrant }
  | {
      granted: false;
      /** The first key that refused: the caller waits on it. */
      blockedKey: string;
      /** When a rate grant of `blockedKey` runs out; absent for slots (they free on release). */
      retryInMs?: number;
    };

export interface LimitStore {
  /**
   * All or nothing: a grant on every request, or on none and the key that refused. At most one
   * round trip to wherever the state lives (stores may batch concurrent calls into one).
   */
  tryAcquire(requests: readonly LimitRequest[]): Promise<LimitAttempt> | LimitAttempt;
  /**
   * Set by stores shared with other processes: slots there free without a release in this
   * process, so a waiter looks again this often (ms). Unset: every release is seen here.
   */
  readonly pollMs?: number;
  /**
   * Set by stores that apply a release made here before any acquisition asked here after it (the
   * PostgreSQL store sends them in one statement): a waiter here may ask as soon as a slot is
   * given back, without waiting for the release to be written.
   */
  readonly releasesBeforeLaterAcquisitions?: boolean;
  /** Stops background work (lease renewal) and gives back what is still held. */
  close?(): Promise<void>;
}

/** Grants in this process: counts for slots, sorted expiry times for rates. */
export class MemoryLimitStore implements LimitStore {
  readonly #slots = new Map<string, number>();
  /** Per rate key: expiry times (ms), ascending. */
  readonly #windows = new Map<string, number[]>();
  #calls = 0;

  tryAcquire(requests: readonly LimitRequest[]): LimitAttempt {
    const now = performance.now();
    if (++this.#calls % 1024 === 0) this.#sweep(now);
    for (const request of requests) {
      if (request.windowMs === undefined) {
        if ((this.#slots.get(request.key) ?? 0) >= request.limit)
          return { granted: false, blockedKey: request.key };
        continue;
      }
      const live = this.#live(request.key, now);
      if (live.length >= request.limit) {
        const frees = live[live.length - request.limit]!;
        return { granted: false, blockedKey: request.key, retryInMs: Math.max(1, Math.ceil(frees - now)) };
      }
    }
    const slots: string[] = [];
    for (const request of requests) {
      if (request.windowMs === undefined) {
        this.#slots.set(request.key, (this.#slots.get(request.key) ?? 0) + 1);
        slots.push(request.key);
      } else {
        const live = this.#live(request.key, now);
        const expires = now + request.windowMs;
        live.push(expires);
        if (live.length > 1 && live[live.length - 2]! > expires) live.sort((a, b) => a - b);
        this.#windows.set(request.key, live);
      }
    }
    let released = false;
    return {
      granted: true,
      grant: {
        release: () => {
          if (released) return;
          released = true;
          for (const key of slots) {
            const left = (this.#slots.get(key) ?? 1) - 1;
            if (left > 0) this.#slots.set(key, left);
            else this.#slots.delete(key);
          }
        },
      },
    };
  }

  /** The live grants of a rate key (expired ones dropped). */
  #live(key: string, now: number): number[] {
    const live = this.#windows.get(key);
    if (!live) return [];
    let expired = 0;
    while (expired < live.length && live[expired]! <= now) expired++;
    if (expired > 0) live.splice(0, expired);
    return live;
  }

  /** Keys come and go with accounts: forget rate keys whose grants have all run out. */
  #sweep(now: number): void {
    for (const [key, live] of this.#windows) if ((live.at(-1) ?? 0) <= now) this.#windows.delete(key);
  }
}
