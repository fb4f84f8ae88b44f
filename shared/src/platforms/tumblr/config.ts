import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultTumblrApiUrl = 'https://api.tumblr.com';
export const defaultTumblrAuthorizeUrl = 'https://www.tumblr.com/oauth2/authorize';

export interface TumblrConfig {
  /** API v2 and the token endpoint (`/v2/oauth2/token`). */
  apiUrl: string;
  authorizeUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  concurrency: number;
}

/** Reads TUMBLR_API_URL, TUMBLR_OAUTH_AUTHORIZE_URL, TUMBLR_CLIENT_ID, TUMBLR_CLIENT_SECRET; throws on a bad URL at start. */
export function tumblrConfigFromEnv(env: Env): TumblrConfig {
  return {
    apiUrl: envBaseUrl(env, 'TUMBLR_API_URL', defaultTumblrApiUrl),
    authorizeUrl: envBaseUrl(env, 'TUMBLR_OAUTH_AUTHORIZE_URL', defaultTumblrAuthorizeUrl),
    clientId: env.TUMBLR_CLIENT_ID || undefined,
    clientSecret: env.TUMBLR_CLIENT_SECRET || undefined,
    concurrency: 4,
  };
}
