import { PlatformError } from '../../errors.ts';
import { envBaseUrl } from '../env.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import type { AnyPublisher, Env } from '../types.ts';
import type { YouTubeConfig } from './config.ts';
import { exchangeGoogleAuthorizationCode } from './oauth.ts';

/** Upload, read the channel, and (youtube.force-ssl) `commentThreads.insert` for the first comment. */
export const youTubeScopes = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

export const defaultGoogleAuthorizeUrl = 'https://accounts.google.com/o/oauth2/v2/auth';

export interface GoogleClientConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
  authorizeUrl: string;
}

/** Reads GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_OAUTH_AUTHORIZE_URL. */
export function googleClientFromEnv(env: Env): GoogleClientConfig {
  return {
    clientId: env.GOOGLE_CLIENT_ID || undefined,
    clientSecret: env.GOOGLE_CLIENT_SECRET || undefined,
    authorizeUrl: envBaseUrl(env, 'GOOGLE_OAUTH_AUTHORIZE_URL', defaultGoogleAuthorizeUrl),
  };
}

/**
 * "Connect YouTube": Google OAuth with PKCE and offline access. The channel comes from the
 * publisher's own lookup, so the stored credentials are exactly what publishing needs.
 */
export function createYouTubeConnector(
  config: YouTubeConfig,
  client: GoogleClientConfig,
  publisher: AnyPublisher,
): OAuthConnector {
  return {
    platform: 'youtube',
    configured: Boolean(client.clientId && client.clientSecret),
    pkce: true,

    authorizeUrl({ state, redirectUri, codeChallenge }) {
      if (!client.clientId) throw new Error('GOOGLE_CLIENT_ID is not set');
      const url = new URL(client.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: youTubeScopes.join(' '),
        // A refresh token is only issued for offline access, and only again on forced consent.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
        ...(codeChallenge ? { code_challenge: codeChallenge, code_challenge_method: 'S256' } : {}),
      }).toString();
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, codeVerifier, signal }): Promise<ConnectableAccount[]> {
      if (!client.clientId || !client.clientSecret) {
        throw new PlatformError(
          'credentials_invalid',
          'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set',
        );
      }
      const tokens = await exchangeGoogleAuthorizationCode(
        config.tokenUrl,
        {
          code,
          codeVerifier: codeVerifier ?? '',
          redirectUri,
          clientId: client.clientId,
          clientSecret: client.clientSecret,
        },
        signal,
      ).catch((error: unknown) => {
        // A refused code is a failed sign-in, not a connection to repair.
        if (error instanceof PlatformError && error.code === 'needs_reconnect')
          throw new PlatformError(
            'credentials_invalid',
            'Google did not accept the authorization code; try again',
          );
        throw error;
      });
      if (!tokens.refreshToken) {
        throw new PlatformError(
          'credentials_invalid',
          'Google did not grant offline access; remove the app in your Google account and try again',
        );
      }
      let credentials: Record<string, unknown> = {
        refreshToken: tokens.refreshToken,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        accessToken: tokens.accessToken,
        expiresAt: tokens.expiresAt,
        ...(tokens.scope ? { scope: tokens.scope } : {}),
      };
      const profile = await publisher.verifyCredentials(
        { id: 'connecting', platform: 'youtube', platformAccountId: '', credentials },
        {
          signal,
          onCredentialsRefreshed: (fresh) => {
            credentials = fresh;
          },
        },
      );
      if (!profile.platformAccountId)
        throw new PlatformError('target_unreachable', 'This Google account has no YouTube channel');
      return [{ platformAccountId: profile.platformAccountId, credentials, profile, kind: 'Channel' }];
    },
  };
}
