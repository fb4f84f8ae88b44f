import { PlatformError } from '../../errors.ts';
import { type ConnectableAccount, failedSignIn, type OAuthConnector } from '../oauth-connector.ts';
import { RefreshLocks } from '../refreshing-token.ts';
import { requestTwitchTokens, validateTwitchToken } from './api.ts';
import type { TwitchConfig } from './config.ts';
import { twitchScopes } from './limits.ts';
import type { TwitchCredentials } from './options.ts';
import { twitchProfile } from './publisher.ts';
import { twitchToken } from './token.ts';

/** "Connect Twitch": authorization code grant (confidential client, no PKCE), one broadcaster per login. */
export function createTwitchConnector(config: TwitchConfig): OAuthConnector {
  return {
    platform: 'twitch',
    configured: Boolean(config.clientId && config.clientSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.clientId) throw new Error('TWITCH_CLIENT_ID is not set');
      const url = new URL(`${config.oauthUrl}/authorize`);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', twitchScopes.join(' '));
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      if (!config.clientId || !config.clientSecret)
        throw new PlatformError(
          'credentials_invalid',
          'TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET are not set',
        );
      const client = { clientId: config.clientId, clientSecret: config.clientSecret };
      const grant = await requestTwitchTokens(
        config,
        client,
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
        signal,
      ).catch(failedSignIn('Twitch refused the sign-in code'));
      if (!grant.refreshToken)
        throw new PlatformError(
          'platform_unavailable',
          'Twitch answered the sign-in without a refresh token',
        );
      let credentials: TwitchCredentials = {
        accessToken: grant.accessToken,
        refreshToken: grant.refreshToken,
        clientId: config.clientId,
        expiresAt: new Date(Date.now() + (grant.expiresIn ?? 14_400) * 1000).toISOString(),
      };
      const token = twitchToken(credentials, config, new RefreshLocks(), {
        signal,
        onCredentialsRefreshed: (fresh) => {
          credentials = fresh as TwitchCredentials;
        },
      });
      const me = await validateTwitchToken(token, config, signal);
      const profile = await twitchProfile(token, config, me, signal);
      return [{ platformAccountId: me.user_id, credentials, profile, kind: 'Channel' }];
    },
  };
}
