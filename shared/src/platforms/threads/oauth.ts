import { PlatformError } from '../../errors.ts';
import { exchangeMetaCode, metaAuthorizeUrl } from '../meta-oauth.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import { threadsCall } from './api.ts';
import type { ThreadsConfig } from './config.ts';
import { threadsError } from './errors.ts';

/** Publishing, and the insights analytics reads (contract section H). */
export const threadsScopes = ['threads_basic', 'threads_content_publish', 'threads_manage_insights'];

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  user_id?: number | string;
}

export interface ThreadsToken {
  accessToken: string;
  /** ISO 8601. */
  expiresAt: string;
}

function toToken(answer: TokenAnswer, what: string): ThreadsToken {
  if (typeof answer.access_token !== 'string' || !answer.access_token) {
    throw new PlatformError('platform_unavailable', `Threads answered ${what} without an access token`);
  }
  // Long-lived tokens last 60 days; Threads says how long in expires_in.
  const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 60 * 24 * 3600;
  return {
    accessToken: answer.access_token,
    expiresAt: new Date(Date.now() + lifetime * 1000).toISOString(),
  };
}

/** `GET /refresh_access_token?grant_type=th_refresh_token`: 60 more days for a long-lived token at least a day old. */
export async function refreshThreadsToken(
  apiUrl: string,
  accessToken: string,
  signal?: AbortSignal,
): Promise<ThreadsToken> {
  const answer = await threadsCall<TokenAnswer>(apiUrl, {
    method: 'GET',
    path: '/refresh_access_token',
    versioned: false,
    params: { grant_type: 'th_refresh_token' },
    accessToken,
    what: 'the token refresh',
    signal,
  });
  return toToken(answer, 'the token refresh');
}

/**
 * "Connect Threads": the authorization code (no PKCE on Threads) is exchanged for a short-lived
 * token (one hour), which is exchanged at once for a long-lived one (60 days).
 */
export function createThreadsConnector(config: ThreadsConfig): OAuthConnector {
  return {
    platform: 'threads',
    configured: Boolean(config.appId && config.appSecret),
    pkce: false,

    authorizeUrl(input) {
      if (!config.appId) throw new Error('THREADS_APP_ID is not set');
      return metaAuthorizeUrl(config.authorizeUrl, config.appId, input, { scopes: threadsScopes });
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const shortLived = await exchangeMetaCode(
        `${config.apiUrl}/oauth/access_token`,
        config,
        { code, redirectUri, signal, method: 'POST', missing: 'THREADS_APP_ID and THREADS_APP_SECRET' },
        (status, body, headers) => {
          const error = threadsError(status, body, headers, 'the sign-in');
          return error.code === 'needs_reconnect' || error.code === 'content_rejected'
            ? new PlatformError(
                'credentials_invalid',
                `Threads refused the sign-in${error.message.replace(/^[^:]*/, '')}`,
                { status },
              )
            : error;
        },
      );
      const short = toToken(shortLived, 'the sign-in');
      const longLived = toToken(
        await threadsCall<TokenAnswer>(config.apiUrl, {
          method: 'GET',
          path: '/access_token',
          versioned: false,
          params: { grant_type: 'th_exchange_token', client_secret: config.appSecret },
          accessToken: short.accessToken,
          what: 'the long-lived token exchange',
          signal,
        }),
        'the long-lived token exchange',
      );
      const profile = await threadsProfile(config.apiUrl, longLived.accessToken, signal);
      return [
        {
          platformAccountId: profile.platformAccountId!,
          credentials: { accessToken: longLived.accessToken, expiresAt: longLived.expiresAt },
          profile,
          kind: 'Profile',
        },
      ];
    },
  };
}

export async function threadsProfile(apiUrl: string, accessToken: string, signal?: AbortSignal) {
  const me = await threadsCall<{
    id?: string;
    username?: string;
    name?: string;
    threads_profile_picture_url?: string;
  }>(apiUrl, {
    method: 'GET',
    path: '/me',
    params: { fields: 'id,username,name,threads_profile_picture_url' },
    accessToken,
    what: 'the profile lookup',
    signal,
  });
  if (!me.id)
    throw new PlatformError('platform_unavailable', 'Threads answered the profile lookup without an id');
  return {
    name: me.name || me.username || me.id,
    ...(me.username ? { username: me.username } : {}),
    ...(me.threads_profile_picture_url ? { avatarUrl: me.threads_profile_picture_url } : {}),
    platformAccountId: me.id,
  };
}
