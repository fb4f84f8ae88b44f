import type { LimitAttempt, LimitRequest, LimitStore } from '@postwave/shared';
import type { Database } from '#server/db/client.ts';
import { MicroBatcher } from '#server/db/micro-batcher.ts';
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
 * and platform. Acquisitions go to the database by group commit (`MicroBatcher`): the ones of one
 * turn go as one call when none is in flight, and those made while a call is in flight go as one
 * when it returns. The database function serialises acquisitions anyway (an advisory lock per
 * key, and every acquisition takes its platform's key), so calls side by side would only queue
 * on that lock; one at a time, each carries more. Releases go the same way. Slots held here
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
  readonly #acquisitions: MicroBatcher<LimitRow[], AcquireAnswer | undefined>;
  readonly #releases: MicroBatcher<string, undefined>;
  readonly #heartbeat: NodeJS.Timeout;
  #beats = 0;
  #closed = false;

  constructor(db: Database, options: DatabaseLimitStoreOptions) {
    this.#db = db;
    this.#leaseMs = options.leaseMs;
    this.pollMs = options.pollMs ?? 100;
    this.#logger = options.logger;
    this.#acquisitions = new MicroBatcher<LimitRow[], AcquireAnswer | undefined>(
      (batch) => acquireLimits(db, batch, this.#leaseMs),
      500,
    );
    this.#releases = new MicroBatcher((ids) => this.#releaseSlots(ids), 1000);
    this.#heartbeat = setInterval(() => void this.#beat(), Math.max(50, Math.floor(options.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  async tryAcquire(requests: readonly LimitRequest[]): Promise<LimitAttempt> {
    const answer = await this.#acquisitions.add(
      requests.map((r) => ({ k: r.key, n: r.limit, w: r.windowMs ?? null })),
    );
    if (answer && 'g' in answer) return { granted: true, grant: this.#grant(answer.g, requests) };
    return {
      granted: false,
      blockedKey: answer?.b ?? requests[0]!.key,
      ...(answer?.r != null ? { retryInMs: answer.r } : {}),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    const held = [...this.#held];
    this.#held.clear();
    await releaseSlots(this.#db, held).catch(() => {});
  }

  #grant(id: string, requests: readonly LimitRequest[]) {
    // A grant of rates only has nothing to give back.
    if (requests.every((r) => r.windowMs !== undefined)) return { release: () => {} };
    this.#held.add(id);
    return {
      release: (): Promise<void> | void => {
        if (!this.#held.delete(id)) return;
        return this.#releases.add(id);
      },
    };
  }

  async #releaseSlots(ids: string[]): Promise<undefined[]> {
    try {
      await releaseSlots(this.#db, ids);
    } catch (error) {
      // The lease is not renewed any more: the slots free themselves within leaseMs.
      this.#logger?.warn({ err: error }, 'could not release publish limit slots; their lease will run out');
    }
    return ids.map(() => undefined);
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
