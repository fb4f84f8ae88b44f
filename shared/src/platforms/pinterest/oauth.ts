import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import {
  type ConnectableAccount,
  consentUrl,
  failedSignIn,
  type OAuthConnector,
} from '../oauth-connector.ts';
import type { RenewedTokens } from '../refreshing-token.ts';
import { pinterestCall, pinterestList } from './api.ts';
import type { PinterestConfig } from './config.ts';
import { pinterestTokenError } from './errors.ts';
import type { PinterestCredentials } from './options.ts';

/** Read the profile and boards, and create pins (with their media) on them. */
export const pinterestScopes = ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'];

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  refresh_token_expires_in?: unknown;
  scope?: unknown;
}

export interface PinterestBoard {
  id: string;
  name?: string;
  privacy?: string;
  owner?: { username?: string };
}

export interface PinterestUser {
  id?: string;
  username?: string;
  profile_image?: string;
  business_name?: string;
}

/**
 * `POST /v5/oauth/token` with the app's id and secret as HTTP Basic. A refresh asks for
 * continuous refresh: Pinterest answers a new refresh token (60 more days) and the spent one stops
 * working.
 */
export async function requestPinterestTokens(
  config: PinterestConfig,
  form: Record<string, string>,
  what: string,
  signal?: AbortSignal,
): Promise<RenewedTokens & { refreshToken: string; scope?: string }> {
  if (!config.appId || !config.appSecret) {
    throw new PlatformError(
      'credentials_invalid',
      'PINTEREST_APP_ID and PINTEREST_APP_SECRET must be set to renew Pinterest tokens',
      { retryable: false },
    );
  }
  const basic = Buffer.from(`${config.appId}:${config.appSecret}`).toString('base64');
  const response = await platformFetch(`${config.apiUrl}/v5/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams(form).toString(),
    ...(signal ? { signal } : {}),
  });
  const answer = ((await readJson(response)) ?? {}) as TokenAnswer;
  if (!response.ok) throw pinterestTokenError(response.status, answer, what);
  if (typeof answer.access_token !== 'string' || typeof answer.refresh_token !== 'string') {
    throw new PlatformError('platform_unavailable', `Pinterest answered ${what} without tokens`);
  }
  const now = Date.now();
  // Access tokens live 30 days, refresh tokens 60; Pinterest says so in each answer.
  const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 30 * 86_400;
  const refreshLifetime =
    typeof answer.refresh_token_expires_in === 'number' ? answer.refresh_token_expires_in : 60 * 86_400;
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token,
    expiresAt: new Date(now + lifetime * 1000).toISOString(),
    refreshExpiresAt: new Date(now + refreshLifetime * 1000).toISOString(),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
  };
}

export function refreshPinterestTokens(
  config: PinterestConfig,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<RenewedTokens> {
  return requestPinterestTokens(
    config,
    { grant_type: 'refresh_token', refresh_token: refreshToken, continuous_refresh: 'true' },
    'the token refresh',
    signal,
  );
}

/**
 * "Connect Pinterest": the authorization code flow; the login's every board is offered in the
 * picker, all sharing one grant (`grantKey`: the Pinterest user), so the refresh token Pinterest
 * rotates on every refresh keeps serving each board.
 */
export function createPinterestConnector(config: PinterestConfig): OAuthConnector {
  return {
    platform: 'pinterest',
    configured: Boolean(config.appId && config.appSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.appId) throw new Error('PINTEREST_APP_ID is not set');
      return consentUrl(config.authorizeUrl, {
        client_id: config.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: pinterestScopes.join(','),
        state,
      });
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const tokens = await requestPinterestTokens(
        config,
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
        'the sign-in',
        signal,
      ).catch(failedSignIn());
      const user = await pinterestCall<PinterestUser>(config.apiUrl, {
        method: 'GET',
        path: '/v5/user_account',
        accessToken: tokens.accessToken,
        what: 'the profile lookup',
        signal,
      });
      const boards = await pinterestList<PinterestBoard>(config.apiUrl, {
        path: '/v5/boards',
        accessToken: tokens.accessToken,
        what: 'the boards',
        signal,
      });
      if (boards.length === 0) {
        throw new PlatformError(
          'credentials_invalid',
          'This Pinterest account has no board to pin to; create one first',
          {
            retryable: false,
          },
        );
      }
      const userKey = user.id || user.username;
      const credentials: PinterestCredentials = {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
        ...(tokens.refreshExpiresAt ? { refreshExpiresAt: tokens.refreshExpiresAt } : {}),
        ...(userKey ? { userId: userKey } : {}),
      };
      return boards.map((board) => ({
        platformAccountId: board.id,
        credentials,
        profile: {
          name: board.name || board.id,
          ...(user.username ? { username: user.username } : {}),
          ...(user.profile_image ? { avatarUrl: user.profile_image } : {}),
        },
        kind: board.privacy === 'SECRET' ? 'Secret board' : 'Board',
        ...(userKey ? { grantKey: userKey } : {}),
      }));
    },
  };
}
