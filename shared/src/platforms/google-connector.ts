import { PlatformError } from '../errors.ts';
import { envBaseUrl } from './env.ts';
import { exchangeGoogleAuthorizationCode, type GoogleCredentials } from './google-oauth.ts';
import { type ConnectableAccount, failedSignIn, type OAuthConnector } from './oauth-connector.ts';
import type { Env } from './types.ts';

/**
 * "Connect with Google": one consent and code exchange for YouTube and Business Profile (the same
 * Google client serves both), with PKCE and offline access. The platforms differ only in the
 * scopes they ask for and in what the grant reaches.
 */

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

export interface GoogleConnectorOptions {
  platform: string;
  scopes: readonly string[];
  tokenUrl: string;
  client: GoogleClientConfig;
  /**
   * The accounts the new grant reaches, read with its credentials. A token renewed meanwhile goes
   * to `onRefreshed`: every account is then returned with the latest credentials.
   */
  listAccounts(
    credentials: GoogleCredentials,
    context: { signal: AbortSignal; onRefreshed: (fresh: Record<string, unknown>) => void },
  ): Promise<Omit<ConnectableAccount, 'credentials'>[]>;
}

export function createGoogleConnector(options: GoogleConnectorOptions): OAuthConnector {
  const { client } = options;
  return {
    platform: options.platform,
    configured: Boolean(client.clientId && client.clientSecret),
    pkce: true,

    authorizeUrl({ state, redirectUri, codeChallenge }) {
      if (!client.clientId) throw new Error('GOOGLE_CLIENT_ID is not set');
      const url = new URL(client.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: options.scopes.join(' '),
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
      const { clientId, clientSecret } = client;
      const tokens = await exchangeGoogleAuthorizationCode(
        options.tokenUrl,
        { code, codeVerifier: codeVerifier ?? '', redirectUri, clientId, clientSecret },
        signal,
      ).catch(failedSignIn('Google did not accept the authorization code; try again'));
      if (!tokens.refreshToken) {
        throw new PlatformError(
          'credentials_invalid',
          'Google did not grant offline access; remove the app in your Google account and try again',
        );
      }
      const first: GoogleCredentials = {
        refreshToken: tokens.refreshToken,
        clientId,
        clientSecret,
        accessToken: tokens.accessToken,
        expiresAt: tokens.expiresAt,
        ...(tokens.scope ? { scope: tokens.scope } : {}),
      };
      let credentials: Record<string, unknown> = { ...first };
      const accounts = await options.listAccounts(first, {
        signal,
        onRefreshed: (fresh) => {
          credentials = fresh;
        },
      });
      return accounts.map((account) => ({ ...account, credentials }));
    },
  };
}
