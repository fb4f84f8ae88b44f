import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultXApiUrl = 'https://api.x.com';
export const defaultXAuthorizeUrl = 'https://x.com/i/oauth2/authorize';
/** X accepts APPEND segments of up to 5 MB. */
export const maxChunkBytes = 5 * 1024 * 1024;

export interface XConfig {
  /** Tweets, users/me, media upload v2 and the token endpoint (`/2/oauth2/token`). */
  apiUrl: string;
  authorizeUrl: string;
  /** The app's OAuth 2.0 client, used to connect accounts and to refresh when credentials carry none. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  chunkBytes: number;
  /** Longest wait for an `x-rate-limit-reset` inside one publish; a later reset fails the attempt as retryable. */
  maxRateLimitWaitMs: number;
  /** Longest wait for video / GIF processing. */
  processingTimeoutMs: number;
  /** Floor and ceiling for waits between STATUS polls (X suggests `check_after_secs`). */
  pollMinMs: number;
  pollMaxMs: number;
}

/** Reads X_API_URL, X_OAUTH_AUTHORIZE_URL, X_CLIENT_ID, X_CLIENT_SECRET, X_MEDIA_CHUNK_BYTES; throws on bad values at start. */
export function xConfigFromEnv(env: Env): XConfig {
  const chunkBytes = envPositiveInt(env, 'X_MEDIA_CHUNK_BYTES', 4 * 1024 * 1024);
  if (chunkBytes > maxChunkBytes) {
    throw new Error(`X_MEDIA_CHUNK_BYTES must be at most ${maxChunkBytes} (5 MB), got ${chunkBytes}`);
  }
  return {
    apiUrl: envBaseUrl(env, 'X_API_URL', defaultXApiUrl),
    authorizeUrl: envBaseUrl(env, 'X_OAUTH_AUTHORIZE_URL', defaultXAuthorizeUrl),
    clientId: env.X_CLIENT_ID || undefined,
    clientSecret: env.X_CLIENT_SECRET || undefined,
    chunkBytes,
    maxRateLimitWaitMs: envPositiveInt(env, 'X_RATE_LIMIT_MAX_WAIT_MS', 60_000),
    processingTimeoutMs: 10 * 60_000,
    pollMinMs: 1_000,
    pollMaxMs: 30_000,
  };
}
