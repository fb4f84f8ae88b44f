import type { LimitAttempt, LimitRequest, LimitStore } from '@postwave/shared';
import type { Database } from '#server/db/client.ts';
import type { AppLogger } from '#server/logger.ts';
import {
  type AcquireAnswer,
  acquireLimits,
  forgetExpiredGrants,
  type LimitRow,
  releaseSlots,
  renewSlots,
} from './repository.ts';

export interface DatabaseLimitStoreOptions {
  /** How long a slot outlives its holder's last renewal (`PUBLISH_LIMITS_LEASE_MS`). */
  leaseMs: number;
  /** How often the first waiter on a busy slot looks again (releases elsewhere are not heard). */
  pollMs?: number;
  logger?: AppLogger;
}

/**
 * Publish limits kept in PostgreSQL, so every instance shares one count per bot, chat, webhook
 * and platform. Acquisitions made in the same turn of the event loop go to the database as one
 * call (one round trip per acquisition at most, usually far less); so do releases. Slots held here
 * are renewed every third of the lease; an instance that dies stops renewing, and its slots free
 * themselves within `leaseMs`.
 */
export class DatabaseLimitStore implements LimitStore {
  readonly pollMs: number;
  readonly #db: Database;
  readonly #leaseMs: number;
  readonly #logger: AppLogger | undefined;
  /** Slot grants held here (rate grants need no renewal and are never released). */
  readonly #held = new Set<string>();
  #pendingAcquire: {
    rows: LimitRow[];
    requests: readonly LimitRequest[];
    resolve: (a: LimitAttempt) => void;
    reject: (e: unknown) => void;
  }[] = [];
  #pendingRelease: string[] = [];
  #releaseWaiters: (() => void)[] = [];
  #flushScheduled = false;
  readonly #heartbeat: NodeJS.Timeout;
  #beats = 0;
  #closed = false;

  constructor(db: Database, options: DatabaseLimitStoreOptions) {
    this.#db = db;
    this.#leaseMs = options.leaseMs;
    this.pollMs = options.pollMs ?? 100;
    this.#logger = options.logger;
    this.#heartbeat = setInterval(() => void this.#beat(), Math.max(50, Math.floor(options.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  tryAcquire(requests: readonly LimitRequest[]): Promise<LimitAttempt> {
    const rows = requests.map((r) => ({ k: r.key, n: r.limit, w: r.windowMs ?? null }));
    return new Promise<LimitAttempt>((resolve, reject) => {
      this.#pendingAcquire.push({ rows, requests, resolve, reject });
      this.#schedule();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    const held = [...this.#held];
    this.#held.clear();
    await releaseSlots(this.#db, held).catch(() => {});
  }

  #schedule(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      void this.#flushAcquisitions();
      void this.#flushReleases();
    });
  }

  async #flushAcquisitions(): Promise<void> {
    const batch = this.#pendingAcquire.splice(0, 500);
    if (this.#pendingAcquire.length > 0) this.#schedule();
    if (batch.length === 0) return;
    let answers: AcquireAnswer[];
    try {
      answers = await acquireLimits(
        this.#db,
        batch.map((b) => b.rows),
        this.#leaseMs,
      );
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    for (const [i, b] of batch.entries()) {
      const answer = answers[i];
      if (answer && 'g' in answer) b.resolve({ granted: true, grant: this.#grant(answer.g, b.requests) });
      else
        b.resolve({
          granted: false,
          blockedKey: answer?.b ?? b.requests[0]!.key,
          ...(answer?.r != null ? { retryInMs: answer.r } : {}),
        });
    }
  }

  #grant(id: string, requests: readonly LimitRequest[]) {
    // A grant of rates only has nothing to give back.
    if (requests.every((r) => r.windowMs !== undefined)) return { release: () => {} };
    this.#held.add(id);
    return {
      release: (): Promise<void> | void => {
        if (!this.#held.delete(id)) return;
        this.#pendingRelease.push(id);
        this.#schedule();
        return new Promise<void>((resolve) => this.#releaseWaiters.push(resolve));
      },
    };
  }

  async #flushReleases(): Promise<void> {
    const ids = this.#pendingRelease.splice(0);
    const waiters = this.#releaseWaiters.splice(0);
    if (ids.length === 0) return;
    try {
      await releaseSlots(this.#db, ids);
    } catch (error) {
      // The lease is not renewed any more: the slots free themselves within leaseMs.
      this.#logger?.warn({ err: error }, 'could not release publish limit slots; their lease will run out');
    }
    for (const w of waiters) w();
  }

  async #beat(): Promise<void> {
    if (this.#closed) return;
    try {
      await renewSlots(this.#db, [...this.#held], this.#leaseMs);
      if (++this.#beats % 60 === 0) await forgetExpiredGrants(this.#db);
    } catch (error) {
      this.#logger?.warn({ err: error }, 'could not renew publish limit slots');
    }
  }
}
