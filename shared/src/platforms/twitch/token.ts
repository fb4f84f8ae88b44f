import { PlatformError } from '../../errors.ts';
import { digest, RefreshingToken, type RefreshLocks, renewedFromGrant } from '../refreshing-token.ts';
import type { PlatformAccount, PublishContext } from '../types.ts';
import { requestTwitchTokens } from './api.ts';
import type { TwitchConfig } from './config.ts';
import { type TwitchCredentials, twitchCredentialsSchema } from './options.ts';

export function twitchCredentials(account: PlatformAccount): TwitchCredentials {
  const parsed = twitchCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError(
      'credentials_invalid',
      'Twitch credentials need accessToken, refreshToken and clientId',
    );
  return parsed.data;
}

/**
 * The broadcaster's access token for one call, refreshed when expired or refused, with the
 * account's client id and its secret (or TWITCH_CLIENT_SECRET for the same client).
 */
export function twitchToken(
  credentials: TwitchCredentials,
  config: TwitchConfig,
  locks: RefreshLocks,
  context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
  stored?: PlatformAccount['currentCredentials'],
): RefreshingToken<TwitchCredentials> {
  const secret =
    credentials.clientSecret ?? (credentials.clientId === config.clientId ? config.clientSecret : undefined);
  return new RefreshingToken(credentials, {
    platformName: 'Twitch',
    locks,
    lockKey: digest(credentials.refreshToken),
    refresh: secret
      ? async (refreshToken, signal) =>
          renewedFromGrant(
            await requestTwitchTokens(
              config,
              { clientId: credentials.clientId, clientSecret: secret },
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
