import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultDribbbleApiUrl = 'https://api.dribbble.com/v2';
export const defaultDribbbleOAuthUrl = 'https://dribbble.com/oauth';

export interface DribbbleConfig {
  /** API v2 base: `/user`, `/shots`. */
  apiUrl: string;
  /** OAuth base: `/authorize` (the consent page) and `/token`. */
  oauthUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Waits between checks for the accepted shot grow from the first to the last. */
  pollMinMs: number;
  pollMaxMs: number;
  /** Longest wait for an accepted shot to exist. */
  processingTimeoutMs: number;
}

/**
 * Reads DRIBBBLE_API_URL, DRIBBBLE_OAUTH_URL, DRIBBBLE_CLIENT_ID, DRIBBBLE_CLIENT_SECRET and
 * DRIBBBLE_PROCESSING_TIMEOUT_MS; throws at start on a malformed value.
 */
export function dribbbleConfigFromEnv(env: Env): DribbbleConfig {
  return {
    apiUrl: envBaseUrl(env, 'DRIBBBLE_API_URL', defaultDribbbleApiUrl),
    oauthUrl: envBaseUrl(env, 'DRIBBBLE_OAUTH_URL', defaultDribbbleOAuthUrl),
    clientId: env.DRIBBBLE_CLIENT_ID || undefined,
    clientSecret: env.DRIBBBLE_CLIENT_SECRET || undefined,
    pollMinMs: 500,
    pollMaxMs: 5_000,
    processingTimeoutMs: envPositiveInt(env, 'DRIBBBLE_PROCESSING_TIMEOUT_MS', 2 * 60_000),
  };
}
