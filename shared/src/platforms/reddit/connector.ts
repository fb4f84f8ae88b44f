import { PlatformError } from '../../errors.ts';
import { type ConnectableAccount, failedSignIn, type OAuthConnector } from '../oauth-connector.ts';
import { RedditApi, RedditRateWindows } from './api.ts';
import type { RedditConfig } from './config.ts';
import type { RedditCredentials } from './options.ts';
import { RedditToken, requestRedditTokens } from './token.ts';

/**
 * `identity` (who signed in), `submit` (posts and the media lease), `read` (subreddit rules and
 * new posts), `flair` (`link_flair_v2`, the flair choices) and `mysubreddits` (the picker's list).
 */
export const redditScopes = ['identity', 'submit', 'read', 'flair', 'mysubreddits'];

interface Me {
  id?: string;
  name?: string;
  icon_img?: string;
  subreddit?: { display_name?: string };
}
interface SubredditListing {
  data?: {
    after?: string | null;
    children?: {
      data?: { display_name?: string; title?: string; subreddit_type?: string; user_is_banned?: boolean };
    }[];
  };
}

/** Pages of 100 subreddits read at most, per list. */
const maxPages = 10;

/**
 * "Connect Reddit": the authorization-code flow with `duration=permanent` (a refresh token that
 * does not expire). The picker offers the user's profile and every subreddit they moderate or
 * joined; all of them share the login's tokens (`grantKey`: the Reddit user id).
 */
export function createRedditConnector(config: RedditConfig): OAuthConnector {
  return {
    platform: 'reddit',
    configured: Boolean(config.clientId && config.clientSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.clientId) throw new Error('REDDIT_CLIENT_ID is not set');
      const url = new URL(`${config.authUrl}/api/v1/authorize`);
      url.search = new URLSearchParams({
        client_id: config.clientId,
        response_type: 'code',
        state,
        redirect_uri: redirectUri,
        duration: 'permanent',
        scope: redditScopes.join(' '),
      }).toString();
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const tokens = await requestRedditTokens(
        config,
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
        signal,
      ).catch(failedSignIn('Reddit did not accept the authorization code; try again'));
      if (!tokens.refreshToken)
        throw new PlatformError(
          'credentials_invalid',
          'Reddit granted no refresh token (duration=permanent)',
        );
      const base: RedditCredentials = {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
      };
      const api = new RedditApi(
        config,
        new RedditToken({ config, credentials: base, signal }),
        new RedditRateWindows(),
        signal,
      );
      const me = await api.call<Me>('/api/v1/me', {}, 'the account lookup');
      if (!me?.name)
        throw new PlatformError('credentials_invalid', 'Reddit answered no user for this sign-in');
      const credentials = { ...base, username: me.name };
      const grantKey = me.id ? `t2_${me.id.replace(/^t2_/, '')}` : me.name.toLowerCase();
      const avatarUrl =
        typeof me.icon_img === 'string' && me.icon_img ? me.icon_img.split('?')[0] : undefined;
      const seen = new Set<string>();
      const accounts: ConnectableAccount[] = [];
      const add = (name: string, label: string, kind: string) => {
        if (seen.has(name.toLowerCase())) return;
        seen.add(name.toLowerCase());
        accounts.push({
          platformAccountId: name,
          credentials,
          profile: {
            name: label,
            username: me.name!,
            ...(avatarUrl ? { avatarUrl } : {}),
            platformAccountId: name,
          },
          kind,
          grantKey,
        });
      };
      const profile = me.subreddit?.display_name;
      if (profile) add(profile, `u/${me.name}`, 'Profile');
      for (const [where, kind] of [
        ['moderator', 'Subreddit (moderator)'],
        ['subscriber', 'Subreddit'],
      ] as const) {
        for (const sub of await listSubreddits(api, where)) {
          if (!sub.display_name || sub.user_is_banned === true || sub.subreddit_type === 'user') continue;
          add(sub.display_name, `r/${sub.display_name}`, kind);
        }
      }
      return accounts;
    },
  };
}

async function listSubreddits(api: RedditApi, where: 'moderator' | 'subscriber') {
  const subs: NonNullable<NonNullable<NonNullable<SubredditListing['data']>['children']>[number]['data']>[] =
    [];
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listing = await api.call<SubredditListing>(
      `/subreddits/mine/${where}`,
      { query: { limit: '100', ...(after ? { after } : {}) } },
      'the list of subreddits',
    );
    for (const child of listing?.data?.children ?? []) if (child.data) subs.push(child.data);
    after = listing?.data?.after ?? undefined;
    if (!after) break;
  }
  return subs;
}
