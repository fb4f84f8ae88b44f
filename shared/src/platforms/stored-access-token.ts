import type { Logger } from '../logger.ts';

/** Refresh this long before the stated expiry, so a token never lapses mid-request. */
const expirySkewMs = 60_000;

/** What a renewal hands back: the fields to merge into the stored credentials. */
export interface Renewal {
  accessToken: string;
  /** ISO 8601. */
  expiresAt: string;
  /** Set only when the platform sent a new one; it must then be stored, or the connection dies. */
  refreshToken?: string | undefined;
  scope?: string | undefined;
}

export interface StoredAccessTokenOptions<C> {
  credentials: C;
  signal?: AbortSignal | undefined;
  onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  logger?: Logger | undefined;
}

interface TokenFields {
  accessToken?: string | undefined;
  expiresAt?: string | number | undefined;
  refreshToken?: string | undefined;
}

/**
 * The access token of one publish or lookup, for platforms whose refresh tokens stay valid when
 * used (Google, Reddit), so instances need not coordinate as `RefreshingToken` does: refreshed
 * when missing, about to expire, or refused, and handed to `onRefreshed` for the caller to store.
 */
export abstract class StoredAccessToken<C extends TokenFields> {
  protected credentials: C;
  protected readonly signal: AbortSignal | undefined;
  #refreshed = false;
  readonly #onRefreshed: StoredAccessTokenOptions<C>['onRefreshed'];
  readonly #logger: Logger | undefined;

  constructor(options: StoredAccessTokenOptions<C>) {
    this.credentials = options.credentials;
    this.signal = options.signal;
    this.#onRefreshed = options.onRefreshed;
    this.#logger = options.logger;
  }

  /** Names the platform in the warning a failed store logs. */
  protected abstract readonly platformName: string;
  /** Whether a token without a stated expiry is used as it is (true) or refreshed first. */
  protected abstract readonly unknownExpiryIsCurrent: boolean;
  /** Runs the platform's refresh-token grant. */
  protected abstract renew(): Promise<Renewal>;

  /** True once this instance obtained a token itself: a refusal of that one is not cured by refreshing. */
  get fresh(): boolean {
    return this.#refreshed;
  }

  async get(now = Date.now()): Promise<string> {
    const { accessToken, expiresAt } = this.credentials;
    if (accessToken) {
      if (expiresAt === undefined) {
        if (this.unknownExpiryIsCurrent) return accessToken;
      } else if (expiryOf(expiresAt) - expirySkewMs > now) return accessToken;
    }
    return this.refresh();
  }

  async refresh(): Promise<string> {
    const tokens = await this.renew();
    this.credentials = {
      ...this.credentials,
      accessToken: tokens.accessToken,
      expiresAt: tokens.expiresAt,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
    };
    this.#refreshed = true;
    try {
      await this.#onRefreshed?.({ ...this.credentials } as Record<string, unknown>);
    } catch (error) {
      this.#logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `storing refreshed ${this.platformName} credentials failed`,
      );
    }
    return tokens.accessToken;
  }
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}
