import { createHash } from 'node:crypto';
import { PlatformError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { sleep } from '../publish/retry.ts';

/**
 * OAuth access tokens that expire and are renewed with a refresh token the platform may rotate
 * (X, TikTok, Pinterest, Tumblr, Twitch: each refresh answers a new refresh token and the spent
 * one stops working). Refreshes of one login queue behind each other, and a caller still holding a
 * refresh token that someone else just spent gets that refresh's result instead of spending the
 * dead token again (docs/platforms/README.md, "Shared grants").
 */

/** What a refresh-token grant answered; the platform may or may not rotate the refresh token. */
export interface RenewedTokens {
  accessToken: string;
  refreshToken?: string;
  /** ISO 8601. */
  expiresAt: string;
  /** ISO 8601: when the refresh token itself lapses (TikTok 365 days, Pinterest 60 days). */
  refreshExpiresAt?: string;
}

/** What a token endpoint answers, before it is dated: lifetimes in seconds. */
export interface TokenGrant {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresIn?: number | undefined;
}

/** A grant dated from now; a grant without a lifetime is taken to live an hour. */
export function renewedFromGrant(grant: TokenGrant, now = Date.now()): RenewedTokens {
  return {
    accessToken: grant.accessToken,
    ...(grant.refreshToken ? { refreshToken: grant.refreshToken } : {}),
    expiresAt: new Date(now + (grant.expiresIn ?? 3600) * 1000).toISOString(),
  };
}

/** The stored credentials of such a login, as accounts files and the Scheduler hold them. */
export interface RefreshableCredentials {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresAt?: string | number | undefined;
  refreshExpiresAt?: string | number | undefined;
}

/** Refresh this long before the stated expiry, so a token never lapses mid-publish. */
const expirySkewMs = 60_000;
/**
 * How long a rotation is remembered, for callers still holding the refresh token it replaced: as
 * long as a refresh token lives (the self-hosted server reads the accounts file's, spent after the
 * first renewal, at every publish), bounded in number.
 */
const rotationMemoryMs = 400 * 24 * 60 * 60_000;
const maxRotations = 5_000;

export class RefreshLocks {
  readonly #tails = new Map<string, Promise<unknown>>();
  /** Keyed by the hash of the refresh token that was spent. */
  readonly #rotations = new Map<string, { tokens: RenewedTokens; at: number }>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(task);
    const tail = current.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  rotated(refreshToken: string, now = Date.now()): RenewedTokens | undefined {
    for (const [spent, rotation] of this.#rotations) {
      if (now - rotation.at > rotationMemoryMs) this.#rotations.delete(spent);
    }
    return this.#rotations.get(digest(refreshToken))?.tokens;
  }

  remember(spentRefreshToken: string, tokens: RenewedTokens, now = Date.now()): void {
    if (this.#rotations.size >= maxRotations) {
      const oldest = this.#rotations.keys().next().value;
      if (oldest !== undefined) this.#rotations.delete(oldest);
    }
    this.#rotations.set(digest(spentRefreshToken), { tokens, at: now });
  }
}

/** A digest of a secret (a refresh token) that can key a map or a lock without holding the secret. */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function expiryOf(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const at = typeof value === 'number' ? value : Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * The access token of one publish or lookup: refreshed when it expires within a minute or when
 * the platform refuses it, and handed back through `onRefreshed` so the caller stores the new
 * (perhaps rotated) refresh token.
 */
export interface RefreshingTokenOptions {
  /** Who shares the refresh token (the platform's user id): refreshes of one key queue. */
  lockKey: string;
  platformName: string;
  locks: RefreshLocks;
  /** Undefined when the account cannot refresh whatever its tokens (no OAuth client to refresh with). */
  refresh: ((refreshToken: string, signal: AbortSignal | undefined) => Promise<RenewedTokens>) | undefined;
  signal?: AbortSignal | undefined;
  onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  logger?: Logger | undefined;
  /**
   * Renew this long before the stated expiry (default a minute): a platform whose tokens live
   * weeks renews in their last days, when the keeper's sweep verifies the connection.
   */
  renewAheadMs?: number;
  /** The error when the token is refused and cannot be renewed; by default `needs_reconnect`. */
  unrenewable?: (() => PlatformError) | undefined;
  /**
   * The credentials as stored now (`PlatformAccount.currentCredentials`): another process sharing
   * the store may have spent the refresh token we hold, and stored its successor.
   */
  stored?: (() => Promise<Record<string, unknown> | undefined>) | undefined;
}

/** How long a refused refresh waits, at most, for the process that spent the token to store its successor. */
const successorWaitMs = [250, 500, 1_000, 2_000];

export class RefreshingToken<C extends RefreshableCredentials> {
  #credentials: C;
  #refreshed = false;
  readonly #options: RefreshingTokenOptions;

  constructor(credentials: C, options: RefreshingTokenOptions) {
    this.#credentials = credentials;
    this.#options = options;
  }

  /** The credentials as they are now (after any refresh). */
  get credentials(): C {
    return this.#credentials;
  }

  /** True once this instance renewed the token: a refusal of that one is not cured by renewing again. */
  get fresh(): boolean {
    return this.#refreshed;
  }

  get canRefresh(): boolean {
    return Boolean(this.#credentials.refreshToken && this.#options.refresh);
  }

  async get(now = Date.now()): Promise<string> {
    const expiresAt = expiryOf(this.#credentials.expiresAt);
    if (
      expiresAt === undefined ||
      expiresAt - (this.#options.renewAheadMs ?? expirySkewMs) > now ||
      !this.canRefresh
    ) {
      return this.#credentials.accessToken;
    }
    return this.refresh(now);
  }

  async refresh(now = Date.now()): Promise<string> {
    const spent = this.#credentials.refreshToken;
    const { platformName, locks, lockKey, refresh } = this.#options;
    if (!spent || !refresh) {
      throw (
        this.#options.unrenewable?.() ??
        new PlatformError(
          'needs_reconnect',
          `${platformName} refused the access token and the account has no ${refresh ? 'refresh token' : 'refresh token or OAuth client'} to renew it; reconnect the account`,
        )
      );
    }
    const ahead = this.#options.renewAheadMs ?? expirySkewMs;
    const tokens = await locks.run(lockKey, async () => {
      // Follow the rotations this process already made from the token we hold: the latest one
      // is used while it is fresh enough, else renewed (never a refresh token already spent).
      let current = spent;
      for (let hops = 0; hops < 1_000; hops++) {
        const already = locks.rotated(current);
        if (!already) break;
        if ((expiryOf(already.expiresAt) ?? 0) - ahead > now) return already;
        if (!already.refreshToken || already.refreshToken === current) break;
        current = already.refreshToken;
      }
      // Another process (a second Scheduler instance) may have rotated the token since we read it.
      const stored = await this.#storedSuccessor(current);
      if (stored) {
        locks.remember(current, stored);
        if ((expiryOf(stored.expiresAt) ?? 0) - ahead > now) return stored;
        current = stored.refreshToken!;
      }
      let renewed: RenewedTokens;
      try {
        renewed = await refresh(current, this.#options.signal);
      } catch (error) {
        // Refused: perhaps spent by another process a moment ago, which stores its successor.
        const successor = isRefusal(error) ? await this.#awaitSuccessor(current) : undefined;
        if (!successor) throw error;
        locks.remember(current, successor);
        if ((expiryOf(successor.expiresAt) ?? 0) - ahead > Date.now()) return successor;
        current = successor.refreshToken!;
        renewed = await refresh(current, this.#options.signal);
      }
      locks.remember(current, renewed);
      return renewed;
    });
    this.#credentials = {
      ...this.#credentials,
      accessToken: tokens.accessToken,
      expiresAt: tokens.expiresAt,
      // A platform that does not rotate answers no refresh token (or the same one): keep ours.
      refreshToken: tokens.refreshToken ?? spent,
      ...(tokens.refreshExpiresAt ? { refreshExpiresAt: tokens.refreshExpiresAt } : {}),
    };
    this.#refreshed = true;
    try {
      await this.#options.onRefreshed?.({ ...this.#credentials } as Record<string, unknown>);
    } catch (error) {
      this.#options.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `storing refreshed ${platformName} credentials failed`,
      );
    }
    return this.#credentials.accessToken;
  }

  /** The stored tokens, when they carry a refresh token other than `spent` (someone rotated it). */
  async #storedSuccessor(spent: string): Promise<RenewedTokens | undefined> {
    const read = this.#options.stored;
    if (!read) return undefined;
    let stored: Record<string, unknown> | undefined;
    try {
      stored = await read();
    } catch (error) {
      this.#options.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `reading the stored ${this.#options.platformName} credentials failed`,
      );
      return undefined;
    }
    const { accessToken, refreshToken, expiresAt, refreshExpiresAt } = stored ?? {};
    if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || refreshToken === spent)
      return undefined;
    // A token this process spent itself is older than ours: the store has not caught up yet.
    if (this.#options.locks.rotated(refreshToken)) return undefined;
    const expiry = expiryOf(
      typeof expiresAt === 'number' || typeof expiresAt === 'string' ? expiresAt : undefined,
    );
    const refreshExpiry = expiryOf(
      typeof refreshExpiresAt === 'number' || typeof refreshExpiresAt === 'string'
        ? refreshExpiresAt
        : undefined,
    );
    return {
      accessToken,
      refreshToken,
      expiresAt: new Date(expiry ?? 0).toISOString(),
      ...(refreshExpiry === undefined ? {} : { refreshExpiresAt: new Date(refreshExpiry).toISOString() }),
    };
  }

  /** The successor of a refused refresh token, once the process that spent it has stored it. */
  async #awaitSuccessor(spent: string): Promise<RenewedTokens | undefined> {
    if (!this.#options.stored) return undefined;
    for (const waitMs of [0, ...successorWaitMs]) {
      if (waitMs > 0) await sleep(waitMs, this.#options.signal);
      const successor = await this.#storedSuccessor(spent);
      if (successor) return successor;
    }
    return undefined;
  }

  /**
   * Runs `call` with the access token; when the platform refuses the token (`needs_reconnect` or
   * `credentials_invalid` with HTTP 401) and this instance has not renewed it yet, renews once and
   * calls again.
   */
  async use<T>(call: (accessToken: string) => Promise<T>): Promise<T> {
    const token = await this.get();
    try {
      return await call(token);
    } catch (error) {
      const refused =
        error instanceof PlatformError &&
        error.status === 401 &&
        (error.code === 'needs_reconnect' || error.code === 'credentials_invalid');
      if (!refused || this.fresh || !this.canRefresh) throw error;
      return call(await this.refresh());
    }
  }
}

/** The platform refused the refresh token itself (spent, revoked), not a passing failure. */
function isRefusal(error: unknown): boolean {
  return error instanceof PlatformError && error.code === 'needs_reconnect';
}
