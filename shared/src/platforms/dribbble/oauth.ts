import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { remoteText } from '../../http/remote-text.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import type { AccountProfile } from '../types.ts';
import { dribbbleCall } from './api.ts';
import type { DribbbleConfig } from './config.ts';

/** `public` to read the profile, `upload` to create shots. */
export const dribbbleScopes = ['public', 'upload'];

interface DribbbleUser {
  id?: unknown;
  name?: unknown;
  login?: unknown;
  avatar_url?: unknown;
}

/** The token's user (`GET /user`): the account id, name, login and avatar. */
export async function dribbbleProfile(
  apiUrl: string,
  token: string,
  signal?: AbortSignal,
): Promise<AccountProfile> {
  const { body: user } = await dribbbleCall<DribbbleUser>(apiUrl, token, {
    method: 'GET',
    path: '/user',
    operation: 'account',
    signal,
  });
  if (typeof user?.id !== 'number')
    throw new PlatformError('platform_unavailable', 'Dribbble answered /user without an id');
  const login = typeof user.login === 'string' ? user.login.slice(0, 100) : undefined;
  const name = typeof user.name === 'string' && user.name.trim() ? user.name.trim().slice(0, 100) : login;
  const avatar = user.avatar_url;
  return {
    name: name ?? String(user.id),
    ...(login ? { username: login } : {}),
    platformAccountId: String(user.id),
    ...(typeof avatar === 'string' && /^https?:\/\/\S{1,2000}$/.test(avatar) ? { avatarUrl: avatar } : {}),
  };
}

/**
 * "Connect Dribbble": the consent page at `<DRIBBBLE_OAUTH_URL>/authorize` (no PKCE on Dribbble),
 * the code exchanged at `/token` with the client secret for a token that does not expire.
 */
export function createDribbbleConnector(config: DribbbleConfig): OAuthConnector {
  return {
    platform: 'dribbble',
    configured: Boolean(config.clientId && config.clientSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.clientId) throw new Error('DRIBBBLE_CLIENT_ID is not set');
      const url = new URL(`${config.oauthUrl}/authorize`);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', dribbbleScopes.join(' '));
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      if (!config.clientId || !config.clientSecret)
        throw new PlatformError(
          'credentials_invalid',
          'DRIBBBLE_CLIENT_ID and DRIBBBLE_CLIENT_SECRET are not set',
        );
      const response = await platformFetch(`${config.oauthUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          code,
          redirect_uri: redirectUri,
        }).toString(),
        signal,
      });
      const answer = (await readJson(response)) as
        | { access_token?: unknown; error?: unknown; error_description?: unknown }
        | undefined;
      if (!response.ok || typeof answer?.access_token !== 'string' || !answer.access_token) {
        const said = remoteText(answer?.error_description) ?? remoteText(answer?.error);
        throw new PlatformError(
          response.status >= 500 ? 'platform_unavailable' : 'credentials_invalid',
          `Dribbble refused the sign-in${said ? `: ${said}` : ` (HTTP ${response.status})`}`,
          { status: response.status },
        );
      }
      const accessToken = answer.access_token;
      const profile = await dribbbleProfile(config.apiUrl, accessToken, signal);
      return [
        {
          platformAccountId: profile.platformAccountId!,
          credentials: { accessToken },
          profile,
          kind: 'Profile',
        },
      ];
    },
  };
}
