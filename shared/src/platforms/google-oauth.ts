import { PlatformError } from '../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../http/fetch.ts';
import type { Logger } from '../logger.ts';

/**
 * Google's OAuth tokens, shared by YouTube and Business Profile (one Google client serves both):
 * the authorization-code exchange, refreshes, and the access token of one publish.
 */

/** The stored credentials of a Google login, as both platforms' credential schemas hold them. */
export interface GoogleCredentials {
  refreshToken: string;
  clientId: string;
  clientSecret: string;
  accessToken?: string | undefined;
  /** ISO 8601, or milliseconds since the epoch. */
  expiresAt?: string | number | undefined;
  /** The scopes Google granted, space-separated. */
  scope?: string | undefined;
}

/** Refresh this long before the stated expiry, so a token never lapses mid-request. */
const expirySkewMs = 60_000;

interface GoogleTokenResponse {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  error?: string;
  error_description?: string;
}

export interface GoogleTokens {
  accessToken: string;
  /** ISO 8601. */
  expiresAt: string;
  refreshToken?: string;
  scope?: string;
}

/** Posts a grant to Google's token endpoint and classifies the answer. */
async function requestTokens(
  tokenUrl: string,
  form: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<GoogleTokens> {
  const response = await platformFetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    signal,
  });
  const body = ((await readJson(response)) ?? {}) as GoogleTokenResponse;
  if (response.ok && typeof body.access_token === 'string') {
    return {
      accessToken: body.access_token,
      expiresAt: new Date(Date.now() + (body.expires_in ?? 3600) * 1000).toISOString(),
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
      ...(body.scope ? { scope: body.scope } : {}),
    };
  }
  throw tokenError(response, body);
}

function tokenError(response: Response, body: GoogleTokenResponse): PlatformError {
  const status = response.status;
  const said = body.error
    ? ` (${body.error}${body.error_description ? `: ${body.error_description.slice(0, 200)}` : ''})`
    : '';
  if (body.error === 'invalid_grant') {
    return new PlatformError(
      'needs_reconnect',
      `Google no longer accepts this YouTube connection; reconnect the account${said}`,
      {
        status,
      },
    );
  }
  if (status === 429) {
    return new PlatformError('rate_limited', 'Google sign-in is rate limited; retry later', {
      status,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    });
  }
  if (status >= 500)
    return new PlatformError('platform_unavailable', `Google sign-in is unavailable (HTTP ${status})`, {
      status,
    });
  return new PlatformError('credentials_invalid', `Google refused the OAuth client credentials${said}`, {
    status,
  });
}

/** The refresh_token grant: a new access token for a stored connection. */
export function refreshGoogleToken(
  tokenUrl: string,
  credentials: Pick<GoogleCredentials, 'refreshToken' | 'clientId' | 'clientSecret'>,
  signal?: AbortSignal,
): Promise<GoogleTokens> {
  return requestTokens(
    tokenUrl,
    {
      grant_type: 'refresh_token',
      refresh_token: credentials.refreshToken,
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    },
    signal,
  );
}

/** The authorization_code grant with PKCE, for connecting an account ("Connect with Google"). */
export function exchangeGoogleAuthorizationCode(
  tokenUrl: string,
  request: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
    clientId: string;
    clientSecret: string;
  },
  signal?: AbortSignal,
): Promise<GoogleTokens> {
  return requestTokens(
    tokenUrl,
    {
      grant_type: 'authorization_code',
      code: request.code,
      code_verifier: request.codeVerifier,
      redirect_uri: request.redirectUri,
      client_id: request.clientId,
      client_secret: request.clientSecret,
    },
    signal,
  );
}

/**
 * The access token for one publish: refreshed when missing, about to expire, or refused, and
 * handed back through `onRefreshed` so the caller can store it.
 */
export class GoogleAccessToken {
  #credentials: GoogleCredentials;
  #refreshed = false;
  readonly #tokenUrl: string;
  readonly #signal: AbortSignal | undefined;
  readonly #onRefreshed: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  readonly #logger: Logger | undefined;

  constructor(options: {
    tokenUrl: string;
    credentials: GoogleCredentials;
    signal?: AbortSignal;
    onRefreshed?: (credentials: Record<string, unknown>) => void | Promise<void>;
    logger?: Logger;
  }) {
    this.#tokenUrl = options.tokenUrl;
    this.#credentials = options.credentials;
    this.#signal = options.signal;
    this.#onRefreshed = options.onRefreshed;
    this.#logger = options.logger;
  }

  /** The scopes Google granted, space-separated, once known (stored with the credentials, or learnt on refresh). */
  get scope(): string | undefined {
    return this.#credentials.scope;
  }

  /** True once this instance obtained a token itself: a refusal of that token is not cured by another refresh. */
  get fresh(): boolean {
    return this.#refreshed;
  }

  async get(now = Date.now()): Promise<string> {
    const { accessToken, expiresAt } = this.#credentials;
    if (accessToken && expiresAt !== undefined && expiryOf(expiresAt) - expirySkewMs > now)
      return accessToken;
    return this.refresh();
  }

  async refresh(): Promise<string> {
    const tokens = await refreshGoogleToken(this.#tokenUrl, this.#credentials, this.#signal);
    this.#credentials = {
      ...this.#credentials,
      accessToken: tokens.accessToken,
      expiresAt: tokens.expiresAt,
      // Google may rotate the refresh token; the new one must be stored or the connection dies.
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
    };
    this.#refreshed = true;
    try {
      await this.#onRefreshed?.({ ...this.#credentials });
    } catch (error) {
      this.#logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'storing refreshed YouTube credentials failed',
      );
    }
    return tokens.accessToken;
  }
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}
