import { PlatformError } from '../../errors.ts';
import { type ConnectableAccount, failedSignIn, type OAuthConnector } from '../oauth-connector.ts';
import { RefreshLocks } from '../refreshing-token.ts';
import { requestTumblrTokens } from './api.ts';
import type { TumblrConfig } from './config.ts';
import type { TumblrCredentials } from './options.ts';
import { tumblrToken } from './token.ts';
import { blogProfile, loginKey, readTumblrUser } from './user.ts';

/** Read the user's blogs, post to them, and stay connected (refresh tokens). */
export const tumblrScopes = ['basic', 'write', 'offline_access'];

/**
 * "Connect Tumblr": OAuth 2 authorization code (Tumblr documents no PKCE). One login may post to
 * several blogs; every blog is offered, all with the login's tokens and one `grantKey`, so the
 * Scheduler stores the tokens once and a rotated refresh token serves every blog.
 */
export function createTumblrConnector(config: TumblrConfig): OAuthConnector {
  return {
    platform: 'tumblr',
    configured: Boolean(config.clientId && config.clientSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.clientId) throw new Error('TUMBLR_CLIENT_ID is not set');
      const url = new URL(config.authorizeUrl);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', tumblrScopes.join(' '));
      url.searchParams.set('state', state);
      url.searchParams.set('redirect_uri', redirectUri);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      if (!config.clientId || !config.clientSecret)
        throw new PlatformError(
          'credentials_invalid',
          'TUMBLR_CLIENT_ID and TUMBLR_CLIENT_SECRET are not set',
        );
      const grant = await requestTumblrTokens(
        config.apiUrl,
        { clientId: config.clientId, clientSecret: config.clientSecret },
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
        signal,
      ).catch(failedSignIn('Tumblr refused the sign-in code'));
      // Without a refresh token the account would stop posting within the hour.
      if (!grant.refreshToken)
        throw new PlatformError(
          'credentials_invalid',
          'Tumblr granted no refresh token: the sign-in must allow offline access (scope offline_access)',
        );
      let credentials: TumblrCredentials = {
        accessToken: grant.accessToken,
        refreshToken: grant.refreshToken,
        expiresAt: new Date(Date.now() + (grant.expiresIn ?? 2520) * 1000).toISOString(),
      };
      const token = tumblrToken(credentials, config, new RefreshLocks(), {
        signal,
        onCredentialsRefreshed: (fresh) => {
          credentials = fresh as TumblrCredentials;
        },
      });
      const user = await readTumblrUser(token, config, signal);
      const grantKey = loginKey(user);
      return user.blogs.map((blog) => ({
        platformAccountId: blog.name,
        credentials,
        profile: blogProfile(blog),
        kind: blog.primary ? 'Blog (primary)' : 'Blog',
        grantKey,
      }));
    },
  };
}
