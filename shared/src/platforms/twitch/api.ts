import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { RefreshingToken, TokenGrant } from '../refreshing-token.ts';
import { requestTokenGrant } from '../token-request.ts';
import type { TwitchConfig } from './config.ts';
import { twitchError, twitchTokenError } from './errors.ts';
import type { TwitchCredentials } from './options.ts';

/** `POST {TWITCH_OAUTH_URL}/token` (form: client id and secret, grant). */
export async function requestTwitchTokens(
  config: TwitchConfig,
  client: { clientId: string; clientSecret: string },
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<TokenGrant> {
  const { grant } = await requestTokenGrant({
    url: `${config.oauthUrl}/token`,
    platform: 'Twitch',
    form: { ...form, client_id: client.clientId, client_secret: client.clientSecret },
    tokenError: twitchTokenError,
    signal,
  });
  return grant;
}

export interface TwitchValidation {
  client_id: string;
  login: string;
  user_id: string;
  scopes: string[];
}

/**
 * One Helix or id.twitch.tv call. `auth: 'OAuth'` is the validate endpoint's scheme, `Bearer`
 * Helix's (with `Client-Id`). A 401 refreshes the token once (when the account can) and tries again.
 */
export async function twitchFetch<T>(
  token: RefreshingToken<TwitchCredentials>,
  url: string,
  request: {
    method: 'GET' | 'POST';
    what: string;
    json?: unknown;
    auth?: 'OAuth' | 'Bearer';
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  let refreshed = false;
  for (;;) {
    const response = await platformFetch(url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        authorization: `${request.auth ?? 'Bearer'} ${await token.get()}`,
        ...(request.auth === 'OAuth' ? {} : { 'client-id': token.credentials.clientId }),
        ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const body = await readJson(response);
    if (response.ok) return (body ?? {}) as T;
    if (response.status === 401 && !refreshed && !token.fresh && token.canRefresh) {
      refreshed = true;
      await token.refresh();
      continue;
    }
    throw twitchError(response.status, body, response.headers, request.what);
  }
}

/** `GET {TWITCH_OAUTH_URL}/validate`: whose token it is (the sender of chat messages). */
export async function validateTwitchToken(
  token: RefreshingToken<TwitchCredentials>,
  config: TwitchConfig,
  signal: AbortSignal | undefined,
): Promise<TwitchValidation> {
  const answer = await twitchFetch<Partial<TwitchValidation>>(token, `${config.oauthUrl}/validate`, {
    method: 'GET',
    what: 'the token check',
    auth: 'OAuth',
    signal,
  });
  if (
    typeof answer.user_id !== 'string' ||
    !/^\d{1,20}$/.test(answer.user_id) ||
    typeof answer.login !== 'string'
  )
    throw new PlatformError('needs_reconnect', 'The Twitch token is not a user token; reconnect the account');
  return {
    client_id: String(answer.client_id ?? ''),
    login: answer.login,
    user_id: answer.user_id,
    scopes: Array.isArray(answer.scopes) ? answer.scopes.map(String) : [],
  };
}
