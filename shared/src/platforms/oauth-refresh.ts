import { createHash } from 'node:crypto';
import { PlatformError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/**
 * OAuth 2 access tokens that renew themselves with a refresh token, for platforms whose
 * publishers hold `accessToken`, `refreshToken` and `expiresAt` (Tumblr, Twitch). Platforms that
 * rotate refresh tokens make a second refresh with a spent token fail, so refreshes of one login
 * queue behind each other and a caller arriving with a token someone already spent gets that
 * refresh's result (docs/platforms/README.md, "Shared grants").
 */

/** Refresh this long before the stated expiry so a token never lapses mid-publish. */
const expirySkewMs = 60_000;
/** How long a rotation is remembered, for callers still holding the refresh token it replaced. */
const rotationMemoryMs = 10 * 60_000;

export interface RefreshableCredentials {
  accessToken: string;
  refreshToken?: string | undefined;
  /** ISO 8601, or milliseconds since the epoch. */
  expiresAt?: string | number | undefined;
}

export interface TokenGrant {
  accessToken: string;
  refreshToken?: string | undefined;
  /** Seconds, as token endpoints answer. */
  expiresIn?: number | undefined;
}

/** One refresh queue per login, and the rotations it made (keyed by a digest of the spent token). */
export class RefreshLocks<C extends RefreshableCredentials = RefreshableCredentials> {
  readonly #tails = new Map<string, Promise<unknown>>();
  readonly #rotations = new Map<string, { credentials: C; at: number }>();

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

  rotated(spentRefreshToken: string, now = Date.now()): C | undefined {
    for (const [spent, rotation] of this.#rotations) {
      if (now - rotation.at > rotationMemoryMs) this.#rotations.delete(spent);
    }
    return this.#rotations.get(digest(spentRefreshToken))?.credentials;
  }

  remember(spentRefreshToken: string, credentials: C, now = Date.now()): void {
    this.#rotations.set(digest(spentRefreshToken), { credentials, at: now });
  }
}

export interface RefreshingTokenOptions<C extends RefreshableCredentials> {
  /** The platform's name, for messages. */
  platform: string;
  credentials: C;
  locks: RefreshLocks<C>;
  /** Who shares the refresh token (the login): never the token itself. */
  lockKey: string;
  /** Undefined when the account cannot refresh (no refresh token, no client). */
  refresh: ((refreshToken: string) => Promise<TokenGrant>) | undefined;
  onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  logger?: Logger | undefined;
}

/** The access token of one publish or lookup, refreshed when expired or refused. */
export class RefreshingToken<C extends RefreshableCredentials> {
  #credentials: C;
  #refreshed = false;
  readonly #options: RefreshingTokenOptions<C>;

  constructor(options: RefreshingTokenOptions<C>) {
    this.#options = options;
    this.#credentials = options.credentials;
  }

  get credentials(): C {
    return this.#credentials;
  }

  /** True once this instance obtained a token itself: a refusal of that one is not cured by refreshing again. */
  get fresh(): boolean {
    return this.#refreshed;
  }

  get canRefresh(): boolean {
    return Boolean(this.#credentials.refreshToken && this.#options.refresh);
  }

  async get(now = Date.now()): Promise<string> {
    const { accessToken, expiresAt } = this.#credentials;
    if (expiresAt === undefined || expiryOf(expiresAt) - expirySkewMs > now || !this.canRefresh) {
      return accessToken;
    }
    return this.refresh();
  }

  async refresh(): Promise<string> {
    const spent = this.#credentials.refreshToken;
    const refresh = this.#options.refresh;
    if (!spent || !refresh) {
      throw new PlatformError(
        'needs_reconnect',
        `${this.#options.platform} refused the access token and the account has no refresh token (or OAuth client) to renew it; reconnect the account`,
      );
    }
    const { locks, lockKey } = this.#options;
    const credentials = await locks.run(lockKey, async () => {
      const already = locks.rotated(spent);
      if (already) return already;
      const grant = await refresh(spent);
      const next: C = {
        ...this.#credentials,
        accessToken: grant.accessToken,
        refreshToken: grant.refreshToken ?? spent,
        expiresAt: new Date(Date.now() + (grant.expiresIn ?? 3600) * 1000).toISOString(),
      };
      locks.remember(spent, next);
      return next;
    });
    this.#credentials = credentials;
    this.#refreshed = true;
    try {
      await this.#options.onRefreshed?.({ ...credentials } as Record<string, unknown>);
    } catch (error) {
      this.#options.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `storing refreshed ${this.#options.platform} credentials failed`,
      );
    }
    return credentials.accessToken;
  }
}

export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}
