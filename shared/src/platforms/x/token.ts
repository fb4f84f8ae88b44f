import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { PlatformAccount } from '../types.ts';
import type { XConfig } from './config.ts';
import { requestXTokens, type XClient } from './oauth.ts';
import type { XCredentials } from './options.ts';

/** Refresh this long before the stated expiry so a token never lapses mid-publish. */
const expirySkewMs = 60_000;
/** How long a rotation is remembered, for callers still holding the refresh token it replaced. */
const rotationMemoryMs = 10 * 60_000;

interface Rotation {
  credentials: XCredentials;
  at: number;
}

/**
 * Refreshes per X account, one at a time. X rotates refresh tokens: a second refresh with the
 * same (now used) token fails and the connection would be lost. So refreshes of one account
 * queue behind each other, and a caller that arrives with a refresh token someone else already
 * rotated gets that rotation's result instead of spending the dead token.
 */
export class XRefreshLocks {
  readonly #tails = new Map<string, Promise<unknown>>();
  /** Keyed by the hash of the refresh token that was spent. */
  readonly #rotations = new Map<string, Rotation>();

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

  rotated(refreshToken: string, now = Date.now()): XCredentials | undefined {
    for (const [spent, rotation] of this.#rotations) {
      if (now - rotation.at > rotationMemoryMs) this.#rotations.delete(spent);
    }
    return this.#rotations.get(hash(refreshToken))?.credentials;
  }

  remember(spentRefreshToken: string, credentials: XCredentials, now = Date.now()): void {
    this.#rotations.set(hash(spentRefreshToken), { credentials, at: now });
  }
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * The access token for one publish or lookup: refreshed when expired or refused (401), and
 * handed back through `onRefreshed` so the caller stores the rotated refresh token.
 */
export class XAccessToken {
  #credentials: XCredentials;
  #refreshed = false;
  readonly #account: PlatformAccount;
  readonly #config: XConfig;
  readonly #locks: XRefreshLocks;
  readonly #signal: AbortSignal | undefined;
  readonly #onRefreshed: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  readonly #logger: Logger | undefined;

  constructor(options: {
    account: PlatformAccount;
    credentials: XCredentials;
    config: XConfig;
    locks: XRefreshLocks;
    signal?: AbortSignal | undefined;
    onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
    logger?: Logger | undefined;
  }) {
    this.#account = options.account;
    this.#credentials = options.credentials;
    this.#config = options.config;
    this.#locks = options.locks;
    this.#signal = options.signal;
    this.#onRefreshed = options.onRefreshed;
    this.#logger = options.logger;
  }

  /** True once this instance obtained a token itself: a refusal of that one is not cured by refreshing again. */
  get fresh(): boolean {
    return this.#refreshed;
  }

  get canRefresh(): boolean {
    return Boolean(this.#credentials.refreshToken && this.#client());
  }

  async get(now = Date.now()): Promise<string> {
    const { accessToken, expiresAt } = this.#credentials;
    if (expiresAt === undefined || expiryOf(expiresAt) - expirySkewMs > now || !this.canRefresh) {
      return accessToken;
    }
    return this.refresh();
  }

  async refresh(): Promise<string> {
    const client = this.#client();
    const spent = this.#credentials.refreshToken;
    if (!spent || !client) {
      throw new PlatformError(
        'credentials_invalid',
        'X refused the access token and the account has no refresh token (and client id) to renew it; reconnect the account or update its credentials',
      );
    }
    const key = `${client.clientId}\n${this.#account.platformAccountId}`;
    const credentials = await this.#locks.run(key, async () => {
      const already = this.#locks.rotated(spent);
      if (already) return already;
      const tokens = await requestXTokens(
        this.#config.apiUrl,
        client,
        { grant_type: 'refresh_token', refresh_token: spent },
        this.#signal,
      );
      const next: XCredentials = {
        ...this.#credentials,
        accessToken: tokens.accessToken,
        expiresAt: tokens.expiresAt,
        ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      };
      this.#locks.remember(spent, next);
      return next;
    });
    this.#credentials = credentials;
    this.#refreshed = true;
    try {
      await this.#onRefreshed?.({ ...credentials });
    } catch (error) {
      this.#logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'storing refreshed X credentials failed',
      );
    }
    return credentials.accessToken;
  }

  /** The account's own client when it names one, else the app configured by X_CLIENT_ID / X_CLIENT_SECRET. */
  #client(): XClient | undefined {
    if (this.#credentials.clientId) {
      return { clientId: this.#credentials.clientId, clientSecret: this.#credentials.clientSecret };
    }
    if (this.#config.clientId)
      return { clientId: this.#config.clientId, clientSecret: this.#config.clientSecret };
    return undefined;
  }
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}
