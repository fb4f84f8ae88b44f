import { PlatformError } from '../../errors.ts';
import type { PlatformAccount, PublishContext } from '../types.ts';
import type { ThreadsConfig } from './config.ts';
import { refreshThreadsToken } from './oauth.ts';
import { type ThreadsCredentials, threadsCredentialsSchema } from './options.ts';

/** The token to use: refreshed (th_refresh_token) when its 60 days are nearly over. */
export async function threadsAccessToken(
  config: ThreadsConfig,
  account: PlatformAccount,
  context: Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>> | undefined,
): Promise<string> {
  const credentials = credentialsOf(account);
  if (credentials.expiresAt === undefined) return credentials.accessToken;
  const expiresAt = expiryOf(credentials.expiresAt);
  if (expiresAt - Date.now() > config.refreshBeforeMs) return credentials.accessToken;
  try {
    const fresh = await refreshThreadsToken(config.apiUrl, credentials.accessToken, context?.signal);
    const next: ThreadsCredentials = { ...credentials, ...fresh };
    try {
      await context?.onCredentialsRefreshed?.({ ...next });
    } catch (error) {
      context?.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'storing refreshed Threads credentials failed',
      );
    }
    return fresh.accessToken;
  } catch (error) {
    // A token that still works is used as is; the next publish tries the refresh again.
    if (expiresAt > Date.now() && !(error instanceof PlatformError && error.code === 'needs_reconnect')) {
      context?.logger?.warn(
        { code: error instanceof PlatformError ? error.code : 'internal' },
        'refreshing the Threads token failed; using the current one',
      );
      return credentials.accessToken;
    }
    throw error;
  }
}

function credentialsOf(account: PlatformAccount): ThreadsCredentials {
  const parsed = threadsCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError('credentials_invalid', 'Threads credentials need an accessToken');
  return parsed.data;
}

function expiryOf(expiresAt: string | number): number {
  return typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
}
