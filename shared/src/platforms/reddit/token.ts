import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { type Renewal, StoredAccessToken, type StoredAccessTokenOptions } from '../stored-access-token.ts';
import type { RedditConfig } from './config.ts';
import type { RedditCredentials } from './options.ts';

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  error?: string;
  message?: string;
}

export interface RedditTokens {
  accessToken: string;
  refreshToken?: string;
  /** ISO 8601. */
  expiresAt: string;
  scope?: string;
}

/**
 * `POST {REDDIT_AUTH_URL}/api/v1/access_token` with the app's client id and secret as HTTP Basic.
 * Reddit answers a spent or revoked grant with `{ "error": "invalid_grant" }`, sometimes under
 * HTTP 200, and bad client credentials with 401.
 */
export async function requestRedditTokens(
  config: RedditConfig,
  form: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<RedditTokens> {
  if (!config.clientId)
    throw new PlatformError(
      'credentials_invalid',
      'REDDIT_CLIENT_ID (and REDDIT_CLIENT_SECRET) must be set to sign in to Reddit',
      { retryable: false },
    );
  const basic = Buffer.from(`${config.clientId}:${config.clientSecret ?? ''}`).toString('base64');
  const response = await platformFetch(`${config.authUrl}/api/v1/access_token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': config.userAgent,
      accept: 'application/json',
    },
    body: new URLSearchParams(form).toString(),
    signal,
  });
  const body = ((await readJson(response)) ?? {}) as TokenAnswer;
  if (response.ok && typeof body.access_token === 'string' && !body.error) {
    return {
      accessToken: body.access_token,
      expiresAt: new Date(Date.now() + (body.expires_in ?? 3600) * 1000).toISOString(),
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
      ...(body.scope ? { scope: body.scope } : {}),
    };
  }
  const status = response.status;
  if (body.error === 'invalid_grant')
    throw new PlatformError(
      'needs_reconnect',
      'Reddit no longer accepts this connection (invalid_grant); reconnect',
      { status },
    );
  if (status === 429)
    throw new PlatformError('rate_limited', 'Reddit sign-in is rate limited; retry later', { status });
  if (status >= 500)
    throw new PlatformError('platform_unavailable', `Reddit sign-in is unavailable (HTTP ${status})`, {
      status,
    });
  throw new PlatformError(
    'credentials_invalid',
    `Reddit refused the app's client credentials (REDDIT_CLIENT_ID / REDDIT_CLIENT_SECRET)${body.error ? `: ${String(body.error).slice(0, 100)}` : ''}`,
    { status },
  );
}

/**
 * The access token for one publish or lookup: refreshed when missing, about to expire or refused,
 * and handed to `onRefreshed` so the caller stores it. Reddit's refresh tokens are permanent; one
 * it sends back with a refresh replaces the stored one.
 */
export class RedditToken extends StoredAccessToken<RedditCredentials> {
  protected readonly platformName = 'Reddit';
  protected readonly unknownExpiryIsCurrent = true;
  readonly #config: RedditConfig;

  constructor(options: StoredAccessTokenOptions<RedditCredentials> & { config: RedditConfig }) {
    super(options);
    this.#config = options.config;
  }

  /** The refresh token: what a rate-limit window and a login are keyed by (hashed by callers). */
  get refreshToken(): string {
    return this.credentials.refreshToken;
  }

  get username(): string | undefined {
    return this.credentials.username;
  }

  protected async renew(): Promise<Renewal> {
    // An accounts-file entry may name the app that issued its tokens; otherwise the server's app.
    const { clientId, clientSecret } = this.credentials;
    const config = clientId ? { ...this.#config, clientId, clientSecret: clientSecret ?? '' } : this.#config;
    const tokens = await requestRedditTokens(
      config,
      { grant_type: 'refresh_token', refresh_token: this.credentials.refreshToken },
      this.signal,
    );
    // Reddit's granted scope is not stored with its credentials.
    return {
      accessToken: tokens.accessToken,
      expiresAt: tokens.expiresAt,
      refreshToken: tokens.refreshToken,
    };
  }
}
