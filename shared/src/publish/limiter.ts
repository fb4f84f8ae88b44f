import type { AnyPublisher, PlatformAccount } from '../platforms/types.ts';

/** A counting semaphore with a FIFO queue. */
class Semaphore {
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get idle(): boolean {
    return this.#active === 0 && this.#waiting.length === 0;
  }

  acquire(): Promise<void> | undefined {
    if (this.#active < this.limit) {
      this.#active++;
      return undefined;
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, if any. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active--;
  }
}

/**
 * Where the limiter's slots live. The default keeps them in this process; a store shared by
 * several instances (the database when DATABASE_URL is set) plugs in here, so four instances do
 * not send four times what a bot or token allows.
 */
export interface ConcurrencyStore {
  /** Waits for one of `limit` slots of `key`; resolves with the function that gives it back. */
  acquire(key: string, limit: number): Promise<() => void> | (() => void);
}

/** Slots in this process: a FIFO semaphore per key, forgotten when idle. */
export class MemoryConcurrencyStore implements ConcurrencyStore {
  readonly #slots = new Map<string, Semaphore>();

  acquire(key: string, limit: number): Promise<() => void> | (() => void) {
    const id = `${key}\u0000${limit}`;
    let slot = this.#slots.get(id);
    if (!slot) {
      slot = new Semaphore(limit);
      this.#slots.set(id, slot);
    }
    const held = slot;
    const release = () => {
      held.release();
      // Keys come and go with accounts: forget idle ones so the map stays small.
      if (held.idle && this.#slots.get(id) === held) this.#slots.delete(id);
    };
    const waiting = held.acquire();
    return waiting ? waiting.then(() => release) : release;
  }
}

export interface KeyedConcurrency {
  /** Who shares the limit (one bot, one webhook, one instance login). An opaque id, never a secret. */
  key: string;
  /** How many tasks with this key may run at once. */
  concurrency: number;
}

export interface PlatformLimiterOptions {
  /** Overrides of each platform's overall limit, by platform id (`PUBLISH_CONCURRENCY_<PLATFORM>`). */
  platformLimits?: ReadonlyMap<string, number>;
  /**
   * Overrides of each platform's per-credential limit (`PUBLISH_CREDENTIAL_CONCURRENCY_<PLATFORM>`).
   * When a platform's overall limit is overridden but this is not, one credential may use all of it.
   */
  credentialLimits?: ReadonlyMap<string, number>;
  /** Where the slots live (default: this process). */
  store?: ConcurrencyStore;
}

/**
 * Concurrency limits shared by every post this process publishes: an overall limit per platform
 * and, for publishers that name one, a limit per credential (Telegram bot, Discord webhook...),
 * since that is where platforms enforce their rate limits. A task first waits for its credential's
 * slot, then for the platform's, so a busy credential never holds platform slots it cannot use.
 */
export class PlatformLimiter {
  readonly #store: ConcurrencyStore;
  /** The limit asked for first holds for the life of the limiter. */
  readonly #platformLimitsSeen = new Map<string, number>();
  readonly #platformLimits: ReadonlyMap<string, number>;
  readonly #credentialLimits: ReadonlyMap<string, number>;

  constructor(options: PlatformLimiterOptions = {}) {
    this.#platformLimits = options.platformLimits ?? new Map();
    this.#credentialLimits = options.credentialLimits ?? new Map();
    this.#store = options.store ?? new MemoryConcurrencyStore();
  }

  /** Runs one publish of `account` under `publisher`'s limits (and the configured overrides). */
  runFor<T>(publisher: AnyPublisher, account: PlatformAccount, task: () => Promise<T>): Promise<T> {
    const key = publisher.concurrencyKey?.(account);
    const keyed =
      key !== undefined && publisher.credentialConcurrency !== undefined
        ? { key, concurrency: publisher.credentialConcurrency }
        : undefined;
    return this.run(publisher.id, publisher.concurrency, task, keyed);
  }

  /**
   * Runs `task` once fewer than `concurrency` tasks of `platform` (and, with `keyed`, fewer than
   * `keyed.concurrency` tasks with the same key) are running. Configured overrides win over both.
   */
  async run<T>(
    platform: string,
    concurrency: number,
    task: () => Promise<T>,
    keyed?: KeyedConcurrency,
  ): Promise<T> {
    const platformOverride = this.#platformLimits.get(platform);
    let platformLimit = this.#platformLimitsSeen.get(platform);
    if (platformLimit === undefined) {
      platformLimit = platformOverride ?? concurrency;
      this.#platformLimitsSeen.set(platform, platformLimit);
    }
    let keyId: string | undefined;
    let keyLimit = 0;
    if (keyed) {
      keyLimit =
        this.#credentialLimits.get(platform) ??
        (platformOverride !== undefined ? platformLimit : keyed.concurrency);
      // A key limit at or above the platform's adds nothing.
      if (keyLimit < platformLimit) keyId = `key\u0000${platform}\u0000${keyed.key}`;
    }
    const releaseKey = keyId !== undefined ? await this.#store.acquire(keyId, keyLimit) : undefined;
    try {
      const releasePlatform = await this.#store.acquire(`platform\u0000${platform}`, platformLimit);
      try {
        return await task();
      } finally {
        releasePlatform();
      }
    } finally {
      releaseKey?.();
    }
  }
}
