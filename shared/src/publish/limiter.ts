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
}

/**
 * Concurrency limits shared by every post this process publishes: an overall limit per platform
 * and, for publishers that name one, a limit per credential (Telegram bot, Discord webhook...),
 * since that is where platforms enforce their rate limits. A task first waits for its credential's
 * slot, then for the platform's, so a busy credential never holds platform slots it cannot use.
 */
export class PlatformLimiter {
  readonly #platforms = new Map<string, Semaphore>();
  readonly #keys = new Map<string, Semaphore>();
  readonly #platformLimits: ReadonlyMap<string, number>;
  readonly #credentialLimits: ReadonlyMap<string, number>;

  constructor(options: PlatformLimiterOptions = {}) {
    this.#platformLimits = options.platformLimits ?? new Map();
    this.#credentialLimits = options.credentialLimits ?? new Map();
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
    const platformLimit = platformOverride ?? concurrency;
    let keySlot: Semaphore | undefined;
    let keyId: string | undefined;
    if (keyed) {
      const keyLimit =
        this.#credentialLimits.get(platform) ??
        (platformOverride !== undefined ? platformLimit : keyed.concurrency);
      // A key limit at or above the platform's adds nothing.
      if (keyLimit < platformLimit) {
        keyId = `${platform}\u0000${keyed.key}\u0000${keyLimit}`;
        keySlot = this.#keys.get(keyId);
        if (!keySlot) {
          keySlot = new Semaphore(keyLimit);
          this.#keys.set(keyId, keySlot);
        }
      }
    }
    // The limit asked for first holds for the life of the limiter.
    let platformSlot = this.#platforms.get(platform);
    if (!platformSlot) {
      platformSlot = new Semaphore(platformLimit);
      this.#platforms.set(platform, platformSlot);
    }
    if (keySlot) await keySlot.acquire();
    try {
      await platformSlot.acquire();
      try {
        return await task();
      } finally {
        platformSlot.release();
      }
    } finally {
      if (keySlot) {
        keySlot.release();
        // Keys come and go with accounts: forget idle ones so the map stays small.
        if (keySlot.idle && keyId !== undefined) this.#keys.delete(keyId);
      }
    }
  }
}
