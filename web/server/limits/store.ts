import type { LimitAttempt, LimitRequest, LimitStore } from '@postwave/shared';
import type { Database } from '#server/db/client.ts';
import { MicroBatcher } from '#server/db/micro-batcher.ts';
import type { AppLogger } from '#server/logger.ts';
import {
  type AcquireAnswer,
  acquireLimits,
  forgetExpiredGrants,
  type LimitRow,
  releaseGrants,
  renewSlots,
  type SlotRow,
  vacuumGrants,
} from './repository.ts';

/**
 * How long a slot given back stays idle here for the next acquisition of its key before it is
 * written free. Long enough for a bot's next post in a busy run to find its slot (20 ms wrote most
 * of them free first: 2,200 grant rows for 4,000 posts over 50 bots, against 450-600 at 100 ms);
 * short beside a publish, so another instance waiting on the key barely notices.
 */
const releaseDelayMs = 100;

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
/**
 * One key's slot held here. `confirmedAt` (`performance.now()`): when its row was last known to be
 * there with a fresh lease (acquired or renewed). Only a slot confirmed within half a lease is
 * handed on: one whose renewals failed may have run out and been counted free elsewhere.
 */
type HeldSlot = SlotRow & { confirmedAt: number };
/**
 * A slot given back here and not written yet, since `since`: the next acquisition of its key here
 * takes it as it is, or a statement deletes it. `done` tells its release it is over.
 */
type IdleSlot = { slot: HeldSlot; since: number; done: () => void };

/**
 * Publish limits kept in PostgreSQL, so every instance shares one count per bot, chat, webhook
 * and platform. Acquisitions go to the database by group commit (`MicroBatcher`), one statement in
 * flight: the calls of one turn go as one when none is in flight, and those made while one is in
 * flight go as one when it returns. The database function serialises acquisitions anyway (an
 * advisory lock per key, and every acquisition takes its platform's key), so calls side by side
 * would only queue on that lock; one at a time, each carries more.
 *
 * A slot given back is idle here for `releaseDelayMs`. The next acquisition of its key here takes
 * it as it is: its row stays, counted as before, and nothing is written (a publish whose every
 * slot is idle here is granted at once, without a round trip; one that also needs a rate grant or
 * another key asks the database for those only). Slots idle that long ride with the next
 * statement, which deletes them first, so they are free for its acquisitions, or go alone; then
 * other instances see them free. So the limiter here may hand a slot on at once
 * (`releasesBeforeLaterAcquisitions`). A busy instance keeps the slots it uses, as it did when each
 * release rode with its next acquisition; the limits themselves are unchanged.
 * Slots held here are renewed every third of the lease; an instance that dies stops renewing, and
 * its slots free themselves within `leaseMs`. Every `vacuumAfterRows` grant rows written and
 * deleted here, the grants' table is vacuumed (`vacuumGrants`), beside the calls, so counting a
 * key's grants stays cheap.
 */
export class DatabaseLimitStore implements LimitStore {
  readonly pollMs: number;
  readonly releasesBeforeLaterAcquisitions = true;
  readonly #db: Database;
  readonly #leaseMs: number;
  readonly #logger: AppLogger | undefined;
  /** Slots held here (rate grants need no renewal and are never released). */
  readonly #held = new Set<HeldSlot>();
  /** Acquisitions, or `null`: a call that only carries the idle slots. */
  readonly #calls: MicroBatcher<LimitRow[] | null, AcquireOutcome | undefined>;
  /** Slots given back and not written yet, by key. */
  readonly #idle = new Map<string, IdleSlot[]>();
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

  tryAcquire(requests: readonly LimitRequest[]): LimitAttempt | Promise<LimitAttempt> {
    const taken: IdleSlot[] = [];
    const rest: LimitRequest[] = [];
    const now = performance.now();
    for (const r of requests) {
      const idle = r.windowMs === undefined ? this.#idle.get(r.key) : undefined;
      // The newest first; one not confirmed lately stays idle until a statement deletes it.
      const last = idle?.at(-1);
      if (last && this.#mayHandOn(last, now)) {
        taken.push(idle!.pop()!);
        if (idle!.length === 0) this.#idle.delete(r.key);
      } else rest.push(r);
    }
    if (rest.length === 0) return { granted: true, grant: this.#grant(this.#handOn(taken)) };
    return this.#ask(rest, taken);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#releaseTimer);
    await this.#vacuum;
    // Everything here goes: every slot row of the grants held or idle here.
    const idle = this.#takeIdle(true);
    const grants = new Set([...this.#held, ...idle.map((i) => i.slot)].map((slot) => slot.grantId));
    this.#held.clear();
    if (grants.size > 0) await releaseGrants(this.#db, [...grants]).catch(() => {});
    for (const i of idle) i.done();
  }

  /** Asks the database for what no idle slot here answered; the idle slots taken go back if refused. */
  async #ask(requests: readonly LimitRequest[], taken: IdleSlot[]): Promise<LimitAttempt> {
    const sentAt = performance.now();
    let sent: AcquireOutcome | undefined;
    try {
      sent = await this.#calls.add(requests.map((r) => ({ k: r.key, n: r.limit, w: r.windowMs ?? null })));
    } catch (error) {
      sent = { error };
    }
    const answer = sent && 'answer' in sent ? sent.answer : undefined;
    if (answer && 'g' in answer) {
      const made = requests
        .filter((r) => r.windowMs === undefined)
        .map((r) => ({ grantId: answer.g, key: r.key, confirmedAt: sentAt }));
      return { granted: true, grant: this.#grant([...this.#handOn(taken), ...made]) };
    }
    for (const i of taken) this.#giveBack(i);
    if (sent && 'error' in sent) throw sent.error;
    return {
      granted: false,
      blockedKey: answer?.b ?? requests[0]!.key,
      ...(answer?.r != null ? { retryInMs: answer.r } : {}),
    };
  }

  /** Idle slots taken by an acquisition: their releases are over. */
  #handOn(taken: readonly IdleSlot[]): HeldSlot[] {
    for (const i of taken) i.done();
    return taken.map((i) => i.slot);
  }

  /** A grant of `slots`, held here (none for a grant of rates only). */
  #grant(slots: readonly HeldSlot[]) {
    for (const slot of slots) this.#held.add(slot);
    if (slots.length === 0) return { release: () => {} };
    let released = false;
    return {
      /** Resolves once every slot is written free or handed on to an acquisition here. */
      release: (): Promise<void> | void => {
        if (released) return;
        released = true;
        let left = slots.length;
        return new Promise<void>((over) => {
          const done = () => {
            if (--left === 0) over();
          };
          const since = performance.now();
          for (const slot of slots) {
            this.#held.delete(slot);
            this.#giveBack({ slot, since, done });
          }
        });
      },
    };
  }

  /** Idle here: the next acquisition of its key takes it, or a statement soon deletes it. */
  #giveBack(slot: IdleSlot): void {
    const idle = this.#idle.get(slot.slot.key);
    if (!idle) this.#idle.set(slot.slot.key, [slot]);
    else {
      // Oldest first (a refused acquisition's slots come back with the time they were given back).
      let at = idle.length;
      while (at > 0 && idle[at - 1]!.since > slot.since) at--;
      idle.splice(at, 0, slot);
    }
    this.#armReleaseTimer();
  }

  /** Once the oldest idle slot has waited `releaseDelayMs`, a statement writes the idle slots free. */
  #armReleaseTimer(): void {
    if (this.#releaseTimer || this.#idle.size === 0 || this.#closed) return;
    let oldest = Number.POSITIVE_INFINITY;
    for (const idle of this.#idle.values()) oldest = Math.min(oldest, idle[0]!.since);
    const wait = Math.max(0, oldest + releaseDelayMs - performance.now());
    this.#releaseTimer = setTimeout(() => {
      this.#releaseTimer = undefined;
      void this.#calls.add(null);
    }, wait);
  }

  /**
   * The idle slots given back `releaseDelayMs` ago or more, and those no acquisition may take (not
   * confirmed lately); all of them with `all`.
   */
  #takeIdle(all = false): IdleSlot[] {
    const now = performance.now();
    const taken: IdleSlot[] = [];
    for (const [key, idle] of this.#idle) {
      const kept: IdleSlot[] = [];
      for (const i of idle)
        (!all && now - i.since < releaseDelayMs && this.#mayHandOn(i, now) ? kept : taken).push(i);
      if (kept.length === idle.length) continue;
      if (kept.length === 0) this.#idle.delete(key);
      else this.#idle.set(key, kept);
    }
    return taken;
  }

  /** Its row was acquired or renewed within half a lease: it is surely still counted. */
  #mayHandOn(idle: IdleSlot, now: number): boolean {
    return idle.slot.confirmedAt > now - this.#leaseMs / 2;
  }

  /** One statement: the slots idle long enough deleted, then the acquisitions answered. */
  async #send(calls: (LimitRow[] | null)[]): Promise<(AcquireOutcome | undefined)[]> {
    const releases = this.#takeIdle();
    this.#armReleaseTimer();
    const acquisitions = calls.filter((c): c is LimitRow[] => c !== null);
    let answers: AcquireAnswer[] = [];
    try {
      if (acquisitions.length > 0 || releases.length > 0)
        answers = await acquireLimits(
          this.#db,
          acquisitions,
          this.#leaseMs,
          releases.map((i) => i.slot),
        );
    } catch (error) {
      // The released slots are not renewed any more: they free themselves within leaseMs.
      if (releases.length > 0)
        this.#logger?.warn({ err: error }, 'could not release publish limit slots; their lease will run out');
      return calls.map((c) => (c === null ? undefined : { error }));
    } finally {
      for (const release of releases) release.done();
    }
    this.#churned += releases.length;
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
      const held = [...this.#held];
      const startedAt = performance.now();
      const renewed = await renewSlots(
        this.#db,
        [...new Set(held.map((slot) => slot.grantId))],
        this.#leaseMs,
      );
      const found = new Set(renewed.map((row) => `${row.grantId} ${row.key}`));
      // A slot not found ran out and may be counted free elsewhere: never handed on again.
      for (const slot of held)
        slot.confirmedAt = found.has(`${slot.grantId} ${slot.key}`) ? startedAt : Number.NEGATIVE_INFINITY;
      if (++this.#beats % 60 === 0) await forgetExpiredGrants(this.#db);
    } catch (error) {
      this.#logger?.warn({ err: error }, 'could not renew publish limit slots');
    }
  }
}
