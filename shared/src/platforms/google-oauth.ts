import { PlatformError } from '../errors.ts';
import { parseRetryAfter, platformFetch, readJson } from '../http/fetch.ts';
import { type Renewal, StoredAccessToken, type StoredAccessTokenOptions } from './stored-access-token.ts';

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
export class GoogleAccessToken extends StoredAccessToken<GoogleCredentials> {
  protected readonly platformName = 'Google';
  protected readonly unknownExpiryIsCurrent = false;
  readonly #tokenUrl: string;

  constructor(options: StoredAccessTokenOptions<GoogleCredentials> & { tokenUrl: string }) {
    super(options);
    this.#tokenUrl = options.tokenUrl;
  }

  /** The scopes Google granted, space-separated, once known (stored with the credentials, or learnt on refresh). */
  get scope(): string | undefined {
    return this.credentials.scope;
  }

  protected renew(): Promise<Renewal> {
    // Google may rotate the refresh token; the base stores a new one when it comes.
    return refreshGoogleToken(this.#tokenUrl, this.credentials, this.signal);
  }
}
