import { PlatformError } from '../../errors.ts';
import { digest, RefreshingToken, type RefreshLocks, renewedFromGrant } from '../refreshing-token.ts';
import type { PlatformAccount, PublishContext } from '../types.ts';
import { requestTumblrTokens, type TumblrClient } from './api.ts';
import type { TumblrConfig } from './config.ts';
import { type TumblrCredentials, tumblrCredentialsSchema } from './options.ts';

export function tumblrCredentials(account: PlatformAccount): TumblrCredentials {
  const parsed = tumblrCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError('credentials_invalid', 'Tumblr credentials need an accessToken');
  return parsed.data;
}

/** The account's own OAuth client when it names one, else TUMBLR_CLIENT_ID / TUMBLR_CLIENT_SECRET. */
export function tumblrClient(credentials: TumblrCredentials, config: TumblrConfig): TumblrClient | undefined {
  if (credentials.clientId && credentials.clientSecret)
    return { clientId: credentials.clientId, clientSecret: credentials.clientSecret };
  if (config.clientId && config.clientSecret)
    return { clientId: config.clientId, clientSecret: config.clientSecret };
  return undefined;
}

/**
 * The access token for one call: refreshed when expired or refused. Tumblr answers a new refresh
 * token on every refresh, so refreshes of one login (blogs share it: a shared grant) queue by the
 * refresh token they spend.
 */
export function tumblrToken(
  credentials: TumblrCredentials,
  config: TumblrConfig,
  locks: RefreshLocks,
  context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
  stored?: PlatformAccount['currentCredentials'],
): RefreshingToken<TumblrCredentials> {
  const client = tumblrClient(credentials, config);
  return new RefreshingToken(credentials, {
    platformName: 'Tumblr',
    locks,
    lockKey: digest(credentials.refreshToken ?? credentials.accessToken),
    refresh: client
      ? async (refreshToken, signal) =>
          renewedFromGrant(
            await requestTumblrTokens(
              config.apiUrl,
              client,
              { grant_type: 'refresh_token', refresh_token: refreshToken },
              signal,
            ),
          )
      : undefined,
    signal: context?.signal,
    stored,
    onRefreshed: context?.onCredentialsRefreshed,
    logger: context?.logger,
  });
}
