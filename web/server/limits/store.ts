import type { LimitAttempt, LimitRequest, LimitStore } from '@postwave/shared';
import type { Database } from '#server/db/client.ts';
import { MicroBatcher } from '#server/db/micro-batcher.ts';
import type { AppLogger } from '#server/logger.ts';
import {
  type AcquireAnswer,
  acquireLimits,
  forgetExpiredGrants,
  type LimitRow,
  renewSlots,
  vacuumGrants,
} from './repository.ts';

/** How long a release waits for an acquisition to ride with before it goes alone. */
const releaseDelayMs = 20;

export interface DatabaseLimitStoreOptions {
  /** How long a slot outlives its holder's last renewal (`PUBLISH_LIMITS_LEASE_MS`). */
  leaseMs: number;
  /** Grant rows written and deleted here between two vacuums of their table (`vacuumGrants`); default 2,000. */
  vacuumAfterRows?: number;
  /** How often the first waiter on a busy slot looks again (releases elsewhere are not heard). */
  pollMs?: number;
  logger?: AppLogger;
}

/** An acquisition's answer, or why its statement failed. */
type AcquireOutcome = { answer: AcquireAnswer | undefined } | { error: unknown };
/** A slot given back and not written yet; `written` resolves once it is (or has failed). */
type PendingRelease = { id: string; written: () => void };

/**
 * Publish limits kept in PostgreSQL, so every instance shares one count per bot, chat, webhook
 * and platform. Acquisitions go to the database by group commit (`MicroBatcher`), one statement in
 * flight: the calls of one turn go as one when none is in flight, and those made while one is in
 * flight go as one when it returns. The database function serialises acquisitions anyway (an
 * advisory lock per key, and every acquisition takes its platform's key), so calls side by side
 * would only queue on that lock; one at a time, each carries more.
 *
 * A slot given back rides with the next acquisitions: the statement deletes it first, so it is
 * free for them, and a release costs no statement of its own. So the limiter here may hand the
 * slot on at once (`releasesBeforeLaterAcquisitions`). Releases no acquisition takes within
 * `releaseDelayMs` go alone, so other instances see them soon. Slots held here are renewed every
 * third of the lease; an instance that dies stops renewing, and its slots free themselves within
 * `leaseMs`. Every `vacuumAfterRows` grant rows written and deleted here, the grants' table is
 * vacuumed (`vacuumGrants`), beside the calls, so counting a key's grants stays cheap.
 */
export class DatabaseLimitStore implements LimitStore {
  readonly pollMs: number;
  readonly releasesBeforeLaterAcquisitions = true;
  readonly #db: Database;
  readonly #leaseMs: number;
  readonly #logger: AppLogger | undefined;
  /** Slot grants held here (rate grants need no renewal and are never released). */
  readonly #held = new Set<string>();
  /** Acquisitions, or `null`: a call that only carries the pending releases. */
  readonly #calls: MicroBatcher<LimitRow[] | null, AcquireOutcome | undefined>;
  #pending: PendingRelease[] = [];
  #releaseTimer: NodeJS.Timeout | undefined;
  readonly #heartbeat: NodeJS.Timeout;
  #beats = 0;
  #closed = false;
  readonly #vacuumAfterRows: number;
  /** Grant rows inserted and deleted here since the last vacuum began. */
  #churned = 0;
  /** The vacuum running, if one is. */
  #vacuum: Promise<void> | undefined;

  constructor(db: Database, options: DatabaseLimitStoreOptions) {
    this.#db = db;
    this.#leaseMs = options.leaseMs;
    this.pollMs = options.pollMs ?? 100;
    this.#logger = options.logger;
    this.#vacuumAfterRows = options.vacuumAfterRows ?? 2000;
    this.#calls = new MicroBatcher((calls) => this.#send(calls), 500);
    this.#heartbeat = setInterval(() => void this.#beat(), Math.max(50, Math.floor(options.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  async tryAcquire(requests: readonly LimitRequest[]): Promise<LimitAttempt> {
    const sent = await this.#calls.add(
      requests.map((r) => ({ k: r.key, n: r.limit, w: r.windowMs ?? null })),
    );
    if (sent && 'error' in sent) throw sent.error;
    const answer = sent?.answer;
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
    clearTimeout(this.#releaseTimer);
    await this.#vacuum;
    const held = [...this.#held, ...this.#pending.map((r) => r.id)];
    this.#held.clear();
    if (held.length > 0) await acquireLimits(this.#db, [], this.#leaseMs, held).catch(() => {});
    for (const release of this.#pending.splice(0)) release.written();
  }

  #grant(id: string, requests: readonly LimitRequest[]) {
    // A grant of rates only has nothing to give back.
    if (requests.every((r) => r.windowMs !== undefined)) return { release: () => {} };
    this.#held.add(id);
    return {
      /** Resolves once the release is written (other instances see the slot free). */
      release: (): Promise<void> | void => {
        if (!this.#held.delete(id)) return;
        return new Promise<void>((written) => {
          this.#pending.push({ id, written });
          this.#releaseTimer ??= setTimeout(() => {
            this.#releaseTimer = undefined;
            if (this.#pending.length > 0) void this.#calls.add(null);
          }, releaseDelayMs);
        });
      },
    };
  }

  /** One statement: the pending releases deleted, then the acquisitions answered. */
  async #send(calls: (LimitRow[] | null)[]): Promise<(AcquireOutcome | undefined)[]> {
    const releases = this.#pending.splice(0);
    const acquisitions = calls.filter((c): c is LimitRow[] => c !== null);
    const ids = releases.map((r) => r.id);
    let answers: AcquireAnswer[] = [];
    try {
      if (acquisitions.length > 0 || ids.length > 0)
        answers = await acquireLimits(this.#db, acquisitions, this.#leaseMs, ids);
    } catch (error) {
      // The released slots are not renewed any more: they free themselves within leaseMs.
      if (ids.length > 0)
        this.#logger?.warn({ err: error }, 'could not release publish limit slots; their lease will run out');
      return calls.map((c) => (c === null ? undefined : { error }));
    } finally {
      for (const release of releases) release.written();
    }
    this.#churned += ids.length;
    for (const [i, answer] of answers.entries())
      if ('g' in answer) this.#churned += acquisitions[i]?.length ?? 0;
    this.#vacuumIfChurned();
    let next = 0;
    return calls.map((c) => (c === null ? undefined : { answer: answers[next++] }));
  }

  /** A vacuum of the grants' table once enough rows came and went here; one at a time, off every call's path. */
  #vacuumIfChurned(): void {
    if (this.#churned < this.#vacuumAfterRows || this.#vacuum || this.#closed) return;
    this.#churned = 0;
    this.#vacuum = vacuumGrants(this.#db)
      .catch((error: unknown) => this.#logger?.warn({ err: error }, 'could not vacuum publish limit grants'))
      .finally(() => {
        this.#vacuum = undefined;
      });
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
