import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultPinterestApiUrl = 'https://api.pinterest.com';
export const defaultPinterestAuthorizeUrl = 'https://www.pinterest.com/oauth/';

export interface PinterestConfig {
  /** API v5 and its token endpoint (`/v5/oauth/token`). */
  apiUrl: string;
  authorizeUrl: string;
  appId: string | undefined;
  appSecret: string | undefined;
  /** Longest wait for an uploaded video to be processed (`succeeded`). */
  processingTimeoutMs: number;
  pollMinMs: number;
  pollMaxMs: number;
}

/**
 * Reads PINTEREST_API_URL, PINTEREST_OAUTH_AUTHORIZE_URL, PINTEREST_APP_ID, PINTEREST_APP_SECRET
 * and PINTEREST_PROCESSING_TIMEOUT_MS; throws on bad values at start.
 */
export function pinterestConfigFromEnv(env: Env): PinterestConfig {
  // Checked as a URL, but kept as written: Pinterest's consent URL ends in a slash.
  envBaseUrl(env, 'PINTEREST_OAUTH_AUTHORIZE_URL', defaultPinterestAuthorizeUrl);
  return {
    apiUrl: envBaseUrl(env, 'PINTEREST_API_URL', defaultPinterestApiUrl),
    authorizeUrl: env.PINTEREST_OAUTH_AUTHORIZE_URL || defaultPinterestAuthorizeUrl,
    appId: env.PINTEREST_APP_ID || undefined,
    appSecret: env.PINTEREST_APP_SECRET || undefined,
    processingTimeoutMs: envPositiveInt(env, 'PINTEREST_PROCESSING_TIMEOUT_MS', 10 * 60_000),
    pollMinMs: 1_000,
    pollMaxMs: 10_000,
  };
}
