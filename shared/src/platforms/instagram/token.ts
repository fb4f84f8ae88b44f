import { PlatformError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { GraphClient } from '../facebook/graph.ts';
import type { InstagramConfig } from './config.ts';
import type { InstagramCredentials } from './options.ts';

/** Long-lived Instagram Login tokens last 60 days; refresh during the last week. */
const refreshAheadMs = 7 * 24 * 60 * 60 * 1000;

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
}

/** Short-lived → long-lived (`ig_exchange_token`) or long-lived → renewed (`ig_refresh_token`), at the unversioned root. */
export async function instagramLongLivedToken(
  config: InstagramConfig,
  input: {
    grant: 'ig_exchange_token' | 'ig_refresh_token';
    accessToken: string;
    signal?: AbortSignal | undefined;
  },
): Promise<{ accessToken: string; expiresAt: string }> {
  const client = new GraphClient({
    base: config.graphRoot,
    token: input.accessToken,
    signal: input.signal,
    platform: 'Instagram',
  });
  const path = input.grant === 'ig_exchange_token' ? '/access_token' : '/refresh_access_token';
  const answer = await client.get<TokenAnswer>(
    path,
    {
      grant_type: input.grant,
      ...(input.grant === 'ig_exchange_token' ? { client_secret: config.appSecret } : {}),
    },
    'the token exchange',
  );
  if (!answer.access_token)
    throw new PlatformError('credentials_invalid', 'Instagram returned no access token');
  return {
    accessToken: answer.access_token,
    expiresAt: new Date(Date.now() + (answer.expires_in ?? 5_184_000) * 1000).toISOString(),
  };
}

/**
 * The token for one publish. An Instagram Login token in its last week is renewed and handed
 * back through `onRefreshed`; a renewal that fails while the token still works is only logged.
 * Page tokens (`loginType: "facebook"`) do not expire.
 */
export async function instagramAccessToken(
  config: InstagramConfig,
  credentials: InstagramCredentials,
  context: {
    signal?: AbortSignal | undefined;
    onRefreshed?: ((credentials: Record<string, unknown>) => void | Promise<void>) | undefined;
    logger?: Logger | undefined;
  },
  now = Date.now(),
): Promise<string> {
  if (credentials.loginType === 'facebook' || credentials.expiresAt === undefined)
    return credentials.accessToken;
  const expiresAt =
    typeof credentials.expiresAt === 'number' ? credentials.expiresAt : Date.parse(credentials.expiresAt);
  if (expiresAt - refreshAheadMs > now) return credentials.accessToken;
  try {
    const renewed = await instagramLongLivedToken(config, {
      grant: 'ig_refresh_token',
      accessToken: credentials.accessToken,
      signal: context.signal,
    });
    try {
      await context.onRefreshed?.({ ...credentials, ...renewed });
    } catch (error) {
      context.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'storing refreshed Instagram credentials failed',
      );
    }
    return renewed.accessToken;
  } catch (error) {
    if (expiresAt <= now) throw error;
    context.logger?.warn(
      { code: error instanceof PlatformError ? error.code : 'internal' },
      'Instagram token renewal failed; publishing with the current token',
    );
    return credentials.accessToken;
  }
}
