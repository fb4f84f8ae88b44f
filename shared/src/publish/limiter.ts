import type { AnyPublisher, PlatformAccount } from '../platforms/types.ts';
import { type KeyedConcurrency, LimitRequests, type RateOverride } from './limit-requests.ts';
import {
  type LimitAttempt,
  type LimitGrant,
  type LimitRequest,
  type LimitStore,
  MemoryLimitStore,
} from './limit-store.ts';

export type { KeyedConcurrency, RateOverride } from './limit-requests.ts';
export * from './limit-store.ts';

export interface PlatformLimiterOptions {
  /** Overrides of each platform's overall limit, by platform id (`PUBLISH_CONCURRENCY_<PLATFORM>`). */
  platformLimits?: ReadonlyMap<string, number>;
  /**
   * Overrides of each platform's per-credential limit (`PUBLISH_CREDENTIAL_CONCURRENCY_<PLATFORM>`).
   * When a platform's overall limit is overridden but this is not, one credential may use all of it.
   */
  credentialLimits?: ReadonlyMap<string, number>;
  /** Overrides of publishers' rate limits, keyed `<platform>:<scope>` (`PUBLISH_RATE_TELEGRAM_BOT`). */
  rateLimits?: ReadonlyMap<string, RateOverride | null>;
  /** Where the limits' state lives (default: this process's memory). */
  store?: LimitStore;
  /**
   * Added to every rate window (default 100 ms, `PUBLISH_LIMITS_RATE_MARGIN_MS`): a grant is taken before
   * the request leaves, requests reach the platform with some jitter (tens of ms on a loaded
   * machine), and the platform counts on receipt.
   */
  rateMarginMs?: number;
}

interface Waiter {
  wake: () => void;
  requests: readonly LimitRequest[];
  /** A grant taken for this waiter when it moved to the front of its line (#moveUp). */
  grant?: LimitGrant;
  /** Sleeping, until a release here (or its poll) wakes it to ask. */
  asleep: boolean;
}

/** Tasks waiting on one key, in arrival order. */
interface Line {
  waiters: Waiter[];
  /** Releases here that found nobody asleep to wake: that many refused askers ask again at once. */
  unheard: number;
}

/**
 * Limits shared by every post this limiter publishes: an overall number of concurrent publishes
 * per platform, per credential for publishers that name one (Telegram bot, Discord webhook...),
 * and the platforms' documented rates (`Publisher.rateLimits`). A publish takes all of its grants
 * at once or none, so a busy credential never holds platform slots it cannot use. With a shared
 * store the limits hold across every instance that uses it.
 *
 * Waiting is local and orderly: tasks blocked on a key queue behind it in arrival order. Each
 * release of a slot here wakes one sleeper on that key to ask again (those woken by one batch of
 * releases ask together, one statement with a group-committing store); only the first in line
 * polls (when a rate grant runs out, or every `store.pollMs` for releases elsewhere). While this
 * instance alone holds a key's whole limit nobody asks the store at all: only a release here can
 * free a slot. So a burst of a thousand posts on one bot costs about a thousand acquisitions, not
 * a thousand polls, and work above a platform's limit waits without asking.
 */
export class PlatformLimiter {
  readonly #store: LimitStore;
  readonly #requests: LimitRequests;
  /** Tasks waiting on a key; the first one is the one that asks the store. */
  readonly #queues = new Map<string, Line>();
  /** Slots held here by key (until their release is written): the store counts at least these. */
  readonly #held = new Map<string, number>();
  /** The store answers at once and sees every release: a grant can be taken for the next in line. */
  readonly #handsOn: boolean;
  /** Counts releases here: a refusal that raced a release is retried at once. */
  #releases = 0;

  constructor(options: PlatformLimiterOptions = {}) {
    this.#requests = new LimitRequests(options);
    this.#store = options.store ?? new MemoryLimitStore();
    this.#handsOn =
      this.#store instanceof MemoryLimitStore && (this.#store as LimitStore).pollMs === undefined;
  }

  get store(): LimitStore {
    return this.#store;
  }

  /** Runs one publish of `account` under `publisher`'s limits (and the configured overrides). */
  runFor<T>(publisher: AnyPublisher, account: PlatformAccount, task: () => Promise<T>): Promise<T> {
    return this.#runWith(this.#requests.forAccount(publisher, account), task);
  }

  /**
   * Runs `task` once fewer than `concurrency` tasks of `platform` (and, with `keyed`, fewer than
   * `keyed.concurrency` tasks with the same key) are running and every rate in `rates` allows one
   * more. Configured overrides win over the publisher's numbers.
   */
  run<T>(
    platform: string,
    concurrency: number,
    task: () => Promise<T>,
    keyed?: KeyedConcurrency,
    rates: readonly LimitRequest[] = [],
  ): Promise<T> {
    return this.#runWith(this.#requests.of(platform, concurrency, keyed, rates), task);
  }

  async #runWith<T>(requests: readonly LimitRequest[], task: () => Promise<T>): Promise<T> {
    const acquired = this.#acquireNow(requests);
    const grant = acquired instanceof Promise ? await acquired : acquired;
    for (const r of requests)
      if (r.windowMs === undefined) this.#held.set(r.key, (this.#held.get(r.key) ?? 0) + 1);
    try {
      return await task();
    } finally {
      this.#release(grant, requests);
    }
  }

  /**
   * Nobody here waits on these keys: ask the store straight away, and when it grants at once (the
   * memory store answers synchronously) skip the waiting machinery and its ticks altogether.
   */
  #acquireNow(requests: readonly LimitRequest[]): LimitGrant | Promise<LimitGrant> {
    if (this.#queues.size > 0 && requests.some((r) => this.#queues.has(r.key)))
      return this.#acquire(requests);
    if (this.#fullHere(requests) !== undefined) return this.#acquire(requests);
    const releasesBefore = this.#releases;
    const attempt = this.#store.tryAcquire(requests);
    if (!(attempt instanceof Promise) && attempt.granted) return attempt.grant;
    return this.#acquire(requests, { attempt, releasesBefore });
  }

  async #acquire(
    requests: readonly LimitRequest[],
    first?: { attempt: LimitAttempt | Promise<LimitAttempt>; releasesBefore: number },
  ): Promise<LimitGrant> {
    // Someone here already waits on one of these keys: queue behind them rather than ask.
    let queued = requests.find((r) => this.#queues.has(r.key))?.key;
    let waiter = queued !== undefined ? this.#enqueue(queued, requests) : undefined;
    let timer: NodeJS.Timeout | undefined;
    let granted = false;
    try {
      for (;;) {
        if (waiter?.grant) {
          granted = true;
          return waiter.grant;
        }
        if (waiter?.asleep) {
          await new Promise<void>((resolve) => (waiter!.wake = resolve));
          continue;
        }
        // This instance alone holds the key's whole limit: only a release here frees a slot.
        const full = first ? undefined : this.#fullHere(requests);
        if (full !== undefined) {
          if (waiter && queued !== full) {
            this.#leave(queued!, waiter);
            waiter = undefined;
          }
          queued = full;
          waiter ??= this.#enqueue(full, requests);
          waiter.asleep = true;
          continue;
        }
        // The first answer may have been asked for already (#acquireNow, nobody queued then).
        const releasesBefore = first ? first.releasesBefore : this.#releases;
        const asked = first ? first.attempt : this.#store.tryAcquire(requests);
        first = undefined;
        const attempt = asked instanceof Promise ? await asked : asked;
        if (attempt.granted) {
          granted = true;
          return attempt.grant;
        }
        if (waiter && queued !== attempt.blockedKey) {
          this.#leave(queued!, waiter);
          waiter = undefined;
        }
        if (!waiter) {
          queued = attempt.blockedKey;
          waiter = this.#enqueue(queued, requests);
        }
        const line = this.#queues.get(queued!)!;
        // A slot released here while we asked, and nobody woken for it: ask again at once.
        if (attempt.retryInMs === undefined && line.unheard > 0) {
          line.unheard--;
          continue;
        }
        // Alone in a line made after it asked: a release meanwhile found nobody to wake.
        if (attempt.retryInMs === undefined && this.#releases !== releasesBefore && line.waiters.length === 1)
          continue;
        waiter.asleep = true;
        // Only the first in line polls; the others wait for a release here.
        if (line.waiters[0] !== waiter) continue;
        // First in line: sleep until the grant it needs can exist (a rate grant runs out, a slot
        // is released here) or, with a shared store, until it is time to look again. The memory
        // store sees every release; its second is only a safety net.
        const wait = attempt.retryInMs ?? this.#store.pollMs ?? 1000;
        await new Promise<void>((resolve) => {
          waiter!.wake = resolve;
          timer = setTimeout(() => {
            waiter!.asleep = false;
            resolve();
          }, wait);
        });
        clearTimeout(timer);
      }
    } finally {
      clearTimeout(timer);
      if (waiter) this.#leave(queued!, waiter, granted);
    }
  }

  #enqueue(key: string, requests: readonly LimitRequest[]): Waiter {
    const line = this.#queues.get(key);
    // Behind others: it sleeps until a release here, or the one ahead moving on, wakes it.
    const waiter: Waiter = { wake: () => {}, requests, asleep: line !== undefined };
    if (line) line.waiters.push(waiter);
    else this.#queues.set(key, { waiters: [waiter], unheard: 0 });
    return waiter;
  }

  /** Takes `waiter` out of `key`'s line (`granted`: it got its grant); the next one in line moves up. */
  #leave(key: string, waiter: Waiter, granted = false): void {
    const queue = this.#queues.get(key)?.waiters;
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index < 0) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(key);
    else if (index === 0 && queue[0]!.asleep) this.#moveUp(key, queue[0]!, granted);
  }

  /**
   * `next` is now first in `key`'s line and may ask the store. After a grant the slot it waits
   * for was usually just taken, so it would ask, be refused and sleep again: with a store that
   * answers at once, ask for it here instead. Granted: it wakes with its grant. Refused on this
   * same slot key: it sleeps on, first in line, until a release here wakes it. Anything else
   * (another key, a rate to wait for, a cancelled waiter ahead): it wakes and asks itself.
   */
  #moveUp(key: string, next: Waiter, afterGrant: boolean): void {
    if (afterGrant && this.#handsOn) {
      const attempt = this.#store.tryAcquire(next.requests) as LimitAttempt;
      if (attempt.granted) next.grant = attempt.grant;
      else if (attempt.blockedKey === key && attempt.retryInMs === undefined) return;
    }
    next.asleep = false;
    next.wake();
  }

  #release(grant: LimitGrant, requests: readonly LimitRequest[]): void {
    const releasing = grant.release();
    if (releasing && !this.#store.releasesBeforeLaterAcquisitions) {
      const wake = () => this.#wakeSlotWaiters(requests);
      releasing.then(wake, wake);
    } else this.#wakeSlotWaiters(requests);
  }

  /** A slot's release is written: one sleeper on each of its keys wakes to ask (not a herd). */
  #wakeSlotWaiters(requests: readonly LimitRequest[]): void {
    this.#releases++;
    for (const r of requests) {
      if (r.windowMs !== undefined) continue;
      const held = this.#held.get(r.key)! - 1;
      if (held > 0) this.#held.set(r.key, held);
      else this.#held.delete(r.key);
      const line = this.#queues.get(r.key);
      if (!line) continue;
      const next = line.waiters.find((w) => w.asleep);
      if (!next) {
        line.unheard++;
        continue;
      }
      next.asleep = false;
      next.wake();
    }
  }

  /** The first slot key whose whole limit is held here, where asking the store is sure to be refused. */
  #fullHere(requests: readonly LimitRequest[]): string | undefined {
    if (this.#held.size === 0) return undefined;
    for (const r of requests)
      if (r.windowMs === undefined && (this.#held.get(r.key) ?? 0) >= r.limit) return r.key;
    return undefined;
  }
}
