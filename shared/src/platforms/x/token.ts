import { PlatformError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { RefreshingToken, type RefreshLocks } from '../refreshing-token.ts';
import type { PlatformAccount } from '../types.ts';
import type { XConfig } from './config.ts';
import { requestXTokens, type XClient } from './oauth.ts';
import type { XCredentials } from './options.ts';

/** The user's access token for one publish or lookup (X rotates refresh tokens on every refresh). */
export type XAccessToken = RefreshingToken<XCredentials>;

/**
 * The access token for one publish or lookup: refreshed when expired or refused (401), and
 * handed back through `onRefreshed` so the caller stores the rotated refresh token. Refreshes
 * queue per client and account.
 */
export function xToken(options: {
  account: PlatformAccount;
  credentials: XCredentials;
  config: XConfig;
  locks: RefreshLocks;
  signal?: AbortSignal | undefined;
  onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
  logger?: Logger | undefined;
}): XAccessToken {
  const { account, credentials, config } = options;
  const client = xClient(credentials, config);
  return new RefreshingToken(credentials, {
    platformName: 'X',
    locks: options.locks,
    lockKey: `${client?.clientId}\n${account.platformAccountId}`,
    refresh: client
      ? (refreshToken, signal) =>
          requestXTokens(
            config.apiUrl,
            client,
            { grant_type: 'refresh_token', refresh_token: refreshToken },
            signal,
          )
      : undefined,
    signal: options.signal,
    stored: account.currentCredentials,
    onRefreshed: options.onRefreshed,
    logger: options.logger,
    unrenewable: () =>
      new PlatformError(
        'credentials_invalid',
        'X refused the access token and the account has no refresh token (and client id) to renew it; reconnect the account or update its credentials',
      ),
  });
}

/** The account's own client when it names one, else the app configured by X_CLIENT_ID / X_CLIENT_SECRET. */
function xClient(credentials: XCredentials, config: XConfig): XClient | undefined {
  if (credentials.clientId) return { clientId: credentials.clientId, clientSecret: credentials.clientSecret };
  if (config.clientId) return { clientId: config.clientId, clientSecret: config.clientSecret };
  return undefined;
}
