import type { AnyPublisher, PlatformAccount } from '../platforms/types.ts';
import type { LimitRequest } from './limit-store.ts';

export interface KeyedConcurrency {
  /** Who shares the limit (one bot, one webhook, one instance login). An opaque id, never a secret. */
  key: string;
  /** How many tasks with this key may run at once. */
  concurrency: number;
}

/** `PUBLISH_RATE_<PLATFORM>_<SCOPE>`: a rate in place of the publisher's, or null to turn it off. */
export interface RateOverride {
  limit: number;
  windowMs: number;
}

/** The settings `LimitRequests` reads (those of `PlatformLimiterOptions`). */
export interface LimitRequestSettings {
  platformLimits?: ReadonlyMap<string, number>;
  credentialLimits?: ReadonlyMap<string, number>;
  rateLimits?: ReadonlyMap<string, RateOverride | null>;
  rateMarginMs?: number;
}

/** What a publish asks the limit store for: its rates, its credential's slot and its platform's. */
export class LimitRequests {
  /** The limit asked for first holds for the life of the limiter. */
  readonly #platformLimitsSeen = new Map<string, number>();
  readonly #platformLimits: ReadonlyMap<string, number>;
  readonly #credentialLimits: ReadonlyMap<string, number>;
  readonly #rateLimits: ReadonlyMap<string, RateOverride | null>;
  readonly #rateMarginMs: number;
  /** Each account's requests, for as long as the account object lives. */
  readonly #accountRequests = new WeakMap<
    PlatformAccount,
    {
      publisher: AnyPublisher;
      credentials: PlatformAccount['credentials'];
      requests: readonly LimitRequest[];
    }
  >();

  constructor(settings: LimitRequestSettings) {
    this.#platformLimits = settings.platformLimits ?? new Map();
    this.#credentialLimits = settings.credentialLimits ?? new Map();
    this.#rateLimits = settings.rateLimits ?? new Map();
    this.#rateMarginMs = settings.rateMarginMs ?? 100;
  }

  /**
   * An account's requests, worked out once per account object: they depend only on the publisher,
   * the account's credentials (the key is a digest of them) and this limiter's settings, and
   * digesting a token on every publish is a measurable share of a small one.
   */
  forAccount(publisher: AnyPublisher, account: PlatformAccount): readonly LimitRequest[] {
    const cached = this.#accountRequests.get(account);
    if (cached && cached.publisher === publisher && cached.credentials === account.credentials)
      return cached.requests;
    const key = publisher.concurrencyKey?.(account);
    const keyed =
      key !== undefined && publisher.credentialConcurrency !== undefined
        ? { key, concurrency: publisher.credentialConcurrency }
        : undefined;
    const rates: LimitRequest[] = [];
    for (const rate of publisher.rateLimits?.(account) ?? []) {
      const override = this.#rateLimits.get(`${publisher.id}:${rate.scope}`);
      if (override === null || (override === undefined && rate.enabled === false)) continue;
      rates.push({
        key: `rate/${publisher.id}/${rate.scope}/${rate.key}`,
        limit: override?.limit ?? rate.limit,
        windowMs: (override?.windowMs ?? rate.windowMs) + this.#rateMarginMs,
      });
    }
    const requests = this.of(publisher.id, publisher.concurrency, keyed, rates);
    this.#accountRequests.set(account, { publisher, credentials: account.credentials, requests });
    return requests;
  }

  of(
    platform: string,
    concurrency: number,
    keyed: KeyedConcurrency | undefined,
    rates: readonly LimitRequest[],
  ): readonly LimitRequest[] {
    const platformOverride = this.#platformLimits.get(platform);
    let platformLimit = this.#platformLimitsSeen.get(platform);
    if (platformLimit === undefined) {
      platformLimit = platformOverride ?? concurrency;
      this.#platformLimitsSeen.set(platform, platformLimit);
    }
    // The narrowest limits first: a refusal names the key worth waiting on.
    const requests: LimitRequest[] = [...rates];
    if (keyed) {
      const keyLimit =
        this.#credentialLimits.get(platform) ??
        (platformOverride !== undefined ? platformLimit : keyed.concurrency);
      // A key limit at or above the platform's adds nothing.
      if (keyLimit < platformLimit) requests.push({ key: `key/${platform}/${keyed.key}`, limit: keyLimit });
    }
    requests.push({ key: `platform/${platform}`, limit: platformLimit });
    return requests;
  }
}
