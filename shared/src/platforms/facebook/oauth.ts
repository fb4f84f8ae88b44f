import { PlatformError } from '../../errors.ts';
import { exchangeMetaCode, type MetaTokenAnswer, metaAuthorizeUrl } from '../meta-oauth.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import type { FacebookConfig } from './config.ts';
import { GraphClient, graphError } from './graph.ts';

/** What a Page connection needs: list pages, publish to them, read them back, comment (first comment). */
export const facebookPageScopes = [
  'pages_show_list',
  'pages_manage_posts',
  'pages_read_engagement',
  'pages_manage_engagement',
  'business_management',
];

export interface FacebookPage {
  id: string;
  name?: string;
  access_token?: string;
  tasks?: string[];
  picture?: { data?: { url?: string } };
  instagram_business_account?: {
    id?: string;
    username?: string;
    name?: string;
    profile_picture_url?: string;
  };
}

/**
 * The Facebook Login dialog URL: with a Login for Business configuration id the permissions come
 * from that configuration, otherwise they are asked for here.
 */
export function facebookDialogUrl(
  config: FacebookConfig,
  input: { state: string; redirectUri: string },
  scopes: string[],
): string {
  return metaAuthorizeUrl(config.authorizeUrl, config.appId, input, {
    scopes,
    configId: config.loginConfigId,
  });
}

/** The code for a short-lived user token, then that for a long-lived one (about 60 days). */
export async function exchangeFacebookCode(
  config: FacebookConfig,
  input: { code: string; redirectUri: string; signal: AbortSignal },
): Promise<string> {
  const short = await exchangeMetaCode(
    `${config.graphBase}/oauth/access_token`,
    config,
    { ...input, method: 'GET', missing: 'FACEBOOK_APP_ID and FACEBOOK_APP_SECRET' },
    (status, body, headers) => graphError(status, body, headers, 'the sign-in', 'Facebook'),
  );
  if (!short.access_token)
    throw new PlatformError('credentials_invalid', 'Facebook returned no access token');
  const anonymous = new GraphClient({
    base: config.graphBase,
    token: '',
    signal: input.signal,
    platform: 'Facebook',
  });
  const long = await anonymous.get<MetaTokenAnswer>(
    '/oauth/access_token',
    {
      grant_type: 'fb_exchange_token',
      client_id: config.appId,
      client_secret: config.appSecret,
      fb_exchange_token: short.access_token,
    },
    'the token exchange',
  );
  return long.access_token ?? short.access_token;
}

/** Every page of `/me/accounts`, following `paging.next`. */
export async function listPages(
  config: FacebookConfig,
  userToken: string,
  fields: string,
  signal: AbortSignal,
): Promise<FacebookPage[]> {
  const client = new GraphClient({ base: config.graphBase, token: userToken, signal, platform: 'Facebook' });
  const pages: FacebookPage[] = [];
  let after: string | undefined;
  for (let round = 0; round < 20; round++) {
    const answer = await client.get<{
      data?: FacebookPage[];
      paging?: { cursors?: { after?: string }; next?: string };
    }>('/me/accounts', { fields, limit: 100, after }, 'the page list');
    pages.push(...(answer.data ?? []));
    after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return pages;
}

/** Facebook Login for Business: every page the user granted, one account each, with its Page token. */
export function createFacebookConnector(config: FacebookConfig): OAuthConnector {
  return {
    platform: 'facebook',
    configured: Boolean(config.appId && config.appSecret),
    pkce: false,
    authorizeUrl: (input) => facebookDialogUrl(config, input, facebookPageScopes),
    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const userToken = await exchangeFacebookCode(config, { code, redirectUri, signal });
      const pages = await listPages(config, userToken, 'id,name,access_token,tasks,picture{url}', signal);
      return pages
        .filter((p) => p.access_token && (!p.tasks || p.tasks.includes('CREATE_CONTENT')))
        .map((p) => ({
          platformAccountId: p.id,
          credentials: { pageAccessToken: p.access_token! },
          profile: {
            name: p.name ?? p.id,
            ...(p.picture?.data?.url ? { avatarUrl: p.picture.data.url } : {}),
            platformAccountId: p.id,
          },
          kind: 'Page',
        }));
    },
  };
}
