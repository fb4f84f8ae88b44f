import { PlatformError } from '../../errors.ts';
import type { FacebookConfig } from '../facebook/config.ts';
import { GraphClient, graphError } from '../facebook/graph.ts';
import { exchangeFacebookCode, facebookDialogUrl, listPages } from '../facebook/oauth.ts';
import { exchangeMetaCode, metaAuthorizeUrl } from '../meta-oauth.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import type { InstagramConfig } from './config.ts';
import { instagramLongLivedToken } from './token.ts';

/** Publishing, comments for the first comment, and insights for analytics (contract section H). */
export const instagramLoginScopes = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_comments',
  'instagram_business_manage_insights',
];
/** Instagram accounts linked to Facebook Pages, reached with the Page's token. */
export const instagramFacebookScopes = [
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'pages_show_list',
  'pages_read_engagement',
  'business_management',
];

interface Me {
  id?: string;
  user_id?: string | number;
  username?: string;
  name?: string;
  profile_picture_url?: string;
  account_type?: string;
}

/**
 * Instagram Login (the professional account signs in on instagram.com; long-lived token,
 * renewed by the publisher in its last week), or with INSTAGRAM_LOGIN=facebook, Facebook Login
 * listing the Instagram accounts linked to the user's Pages (Page tokens, which do not expire).
 */
export function createInstagramConnector(config: InstagramConfig): OAuthConnector {
  const configured = Boolean(config.appId && config.appSecret);
  if (config.login === 'facebook') {
    const facebook: FacebookConfig = {
      graphBase: config.facebookGraphBase,
      videoBase: config.facebookGraphBase,
      authorizeUrl: config.facebookAuthorizeUrl,
      appId: config.appId,
      appSecret: config.appSecret,
      loginConfigId: config.facebookLoginConfigId,
      resumableVideoBytes: 0,
    };
    return {
      platform: 'instagram',
      configured,
      pkce: false,
      authorizeUrl: (input) => facebookDialogUrl(facebook, input, instagramFacebookScopes),
      async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
        const userToken = await exchangeFacebookCode(facebook, { code, redirectUri, signal });
        const pages = await listPages(
          facebook,
          userToken,
          'id,name,access_token,instagram_business_account{id,username,name,profile_picture_url}',
          signal,
        );
        return pages.flatMap((page) => {
          const ig = page.instagram_business_account;
          if (!ig?.id || !page.access_token) return [];
          return [
            {
              platformAccountId: ig.id,
              credentials: { accessToken: page.access_token, loginType: 'facebook' },
              profile: {
                name: ig.name ?? ig.username ?? ig.id,
                ...(ig.username ? { username: ig.username } : {}),
                ...(ig.profile_picture_url ? { avatarUrl: ig.profile_picture_url } : {}),
                platformAccountId: ig.id,
              },
              kind: `Instagram account (Page ${page.name ?? page.id})`,
            },
          ];
        });
      },
    };
  }
  return {
    platform: 'instagram',
    configured,
    pkce: false,
    authorizeUrl: (input) =>
      metaAuthorizeUrl(config.authorizeUrl, config.appId, input, { scopes: instagramLoginScopes }),
    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const body = await exchangeMetaCode(
        config.tokenUrl,
        config,
        { code, redirectUri, signal, method: 'POST', missing: 'INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET' },
        (status, answer, headers) => graphError(status, answer, headers, 'the sign-in', 'Instagram'),
      );
      const short = body.access_token ?? body.data?.[0]?.access_token;
      if (!short) throw new PlatformError('credentials_invalid', 'Instagram returned no access token');
      const long = await instagramLongLivedToken(config, {
        grant: 'ig_exchange_token',
        accessToken: short,
        signal,
      });
      const me = await new GraphClient({
        base: config.graphBase,
        token: long.accessToken,
        signal,
        platform: 'Instagram',
      }).get<Me>(
        '/me',
        { fields: 'user_id,username,name,profile_picture_url,account_type' },
        'the account lookup',
      );
      const id = String(me.user_id ?? body.user_id ?? me.id);
      return [
        {
          platformAccountId: id,
          credentials: { accessToken: long.accessToken, expiresAt: long.expiresAt },
          profile: {
            name: me.name ?? me.username ?? id,
            ...(me.username ? { username: me.username } : {}),
            ...(me.profile_picture_url ? { avatarUrl: me.profile_picture_url } : {}),
            platformAccountId: id,
          },
          kind: 'Professional account',
        },
      ];
    },
  };
}
