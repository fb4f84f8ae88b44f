import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import {
  type ConnectableAccount,
  consentUrl,
  failedSignIn,
  type OAuthConnector,
} from '../oauth-connector.ts';
import type { RenewedTokens } from '../refreshing-token.ts';
import type { TikTokConfig } from './config.ts';
import { tiktokTokenError } from './errors.ts';
import type { TikTokCredentials } from './options.ts';
import { creatorInfo, tiktokProfile } from './profile.ts';

/** Read the profile, and post directly (video.publish) with uploaded or pulled media (video.upload). */
export const tiktokScopes = ['user.info.basic', 'video.publish', 'video.upload'];

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
  refresh_expires_in?: unknown;
  open_id?: unknown;
  scope?: unknown;
}

export interface TikTokTokens extends RenewedTokens {
  refreshToken: string;
  openId?: string;
  scope?: string;
}

/** `POST /v2/oauth/token/` (form): an authorization code or a refresh token for new tokens. */
export async function requestTikTokTokens(
  config: TikTokConfig,
  form: Record<string, string>,
  what: string,
  signal?: AbortSignal,
): Promise<TikTokTokens> {
  if (!config.clientKey || !config.clientSecret) {
    throw new PlatformError(
      'credentials_invalid',
      'TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET must be set to renew TikTok tokens',
      { retryable: false },
    );
  }
  const response = await platformFetch(`${config.apiUrl}/v2/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache' },
    body: new URLSearchParams({
      client_key: config.clientKey,
      client_secret: config.clientSecret,
      ...form,
    }).toString(),
    ...(signal ? { signal } : {}),
  });
  const answer = ((await readJson(response)) ?? {}) as TokenAnswer;
  // TikTok answers some refusals with HTTP 200 and an `error` field instead of tokens.
  if (!response.ok || typeof answer.access_token !== 'string' || answer.access_token === '') {
    if (response.ok && !('error' in answer))
      throw new PlatformError('platform_unavailable', `TikTok answered ${what} without an access token`);
    throw tiktokTokenError(response.status, answer, what);
  }
  if (typeof answer.refresh_token !== 'string' || answer.refresh_token === '') {
    throw new PlatformError('platform_unavailable', `TikTok answered ${what} without a refresh token`);
  }
  const now = Date.now();
  // Access tokens live 24 hours and refresh tokens 365 days; TikTok says so in each answer.
  const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 86_400;
  const refreshLifetime =
    typeof answer.refresh_expires_in === 'number' ? answer.refresh_expires_in : 365 * 86_400;
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token,
    expiresAt: new Date(now + lifetime * 1000).toISOString(),
    refreshExpiresAt: new Date(now + refreshLifetime * 1000).toISOString(),
    ...(typeof answer.open_id === 'string' ? { openId: answer.open_id } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
  };
}

export function refreshTikTokTokens(
  config: TikTokConfig,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<TikTokTokens> {
  return requestTikTokTokens(
    config,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    'the token refresh',
    signal,
  );
}

/** "Connect TikTok": Login Kit's OAuth v2 authorization code flow (web: the client secret, no PKCE). */
export function createTikTokConnector(config: TikTokConfig): OAuthConnector {
  return {
    platform: 'tiktok',
    configured: Boolean(config.clientKey && config.clientSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.clientKey) throw new Error('TIKTOK_CLIENT_KEY is not set');
      return consentUrl(config.authorizeUrl, {
        client_key: config.clientKey,
        scope: tiktokScopes.join(','),
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
      });
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const tokens = await requestTikTokTokens(
        config,
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
        'the sign-in',
        signal,
      ).catch(failedSignIn());
      const granted = (tokens.scope ?? tiktokScopes.join(',')).split(',');
      const missing = tiktokScopes.filter((scope) => !granted.includes(scope));
      if (missing.length > 0) {
        throw new PlatformError(
          'credentials_invalid',
          `TikTok was not allowed ${missing.join(', ')}; connect again and allow every permission`,
        );
      }
      const profile = await tiktokProfile(config.apiUrl, tokens.accessToken, signal);
      // creator_info names the creator's @handle (for post links); the connection works without it.
      const creator = await creatorInfo(config.apiUrl, tokens.accessToken, signal).catch(() => undefined);
      const credentials: TikTokCredentials = {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
        ...(tokens.refreshExpiresAt ? { refreshExpiresAt: tokens.refreshExpiresAt } : {}),
      };
      const openId = profile.platformAccountId ?? tokens.openId;
      if (!openId)
        throw new PlatformError('platform_unavailable', 'TikTok answered the sign-in without an open_id');
      return [
        {
          platformAccountId: openId,
          credentials,
          profile: {
            ...profile,
            ...(creator?.creator_username ? { username: creator.creator_username } : {}),
          },
          kind: 'Creator',
        },
      ];
    },
  };
}
