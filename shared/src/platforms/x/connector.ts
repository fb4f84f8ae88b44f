import { PlatformError } from '../../errors.ts';
import { type ConnectableAccount, failedSignIn, type OAuthConnector } from '../oauth-connector.ts';
import { RefreshLocks } from '../refreshing-token.ts';
import { xFetch } from './api.ts';
import type { XConfig } from './config.ts';
import { requestXTokens } from './oauth.ts';
import type { XCredentials } from './options.ts';
import { profileOf } from './publisher.ts';
import { xToken } from './token.ts';

/** Post, read the profile, upload media, and keep access (refresh tokens) past two hours. */
export const xScopes = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

/** "Connect X": OAuth 2.0 authorization code with PKCE (S256), as X requires for user context. */
export function createXConnector(config: XConfig): OAuthConnector {
  return {
    platform: 'x',
    configured: Boolean(config.clientId),
    pkce: true,

    authorizeUrl({ state, redirectUri, codeChallenge }) {
      if (!config.clientId) throw new Error('X_CLIENT_ID is not set');
      if (!codeChallenge) throw new Error('X requires PKCE: pass a code challenge');
      const url = new URL(config.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', xScopes.join(' '));
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, codeVerifier, signal }): Promise<ConnectableAccount[]> {
      if (!config.clientId) throw new PlatformError('credentials_invalid', 'X_CLIENT_ID is not set');
      if (!codeVerifier) throw new PlatformError('credentials_invalid', 'X requires the PKCE code verifier');
      const tokens = await requestXTokens(
        config.apiUrl,
        { clientId: config.clientId, clientSecret: config.clientSecret },
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier },
        signal,
      ).catch(failedSignIn());
      let credentials: XCredentials = {
        accessToken: tokens.accessToken,
        ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
        expiresAt: tokens.expiresAt,
      };
      const token = xToken({
        account: { id: 'connecting', platform: 'x', platformAccountId: 'connecting', credentials },
        credentials,
        config,
        locks: new RefreshLocks(),
        signal,
        // A short-lived first token is refreshed by the profile lookup: X rotates the refresh
        // token then, so only the refreshed pair is worth storing.
        onRefreshed: (fresh) => {
          credentials = fresh as XCredentials;
        },
      });
      const { data } = await xFetch<Parameters<typeof profileOf>[0]>(
        token,
        `${config.apiUrl}/2/users/me?user.fields=profile_image_url`,
        { method: 'GET', signal, what: 'the account lookup' },
        config.maxRateLimitWaitMs,
      );
      const profile = profileOf(data);
      return [{ platformAccountId: profile.platformAccountId!, credentials, profile, kind: 'Profile' }];
    },
  };
}
