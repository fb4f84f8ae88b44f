import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';
import { maxChunkBytes, minChunkBytes } from './limits.ts';

export const defaultTikTokApiUrl = 'https://open.tiktokapis.com';
export const defaultTikTokAuthorizeUrl = 'https://www.tiktok.com/v2/auth/authorize/';

export type TikTokVideoSource = 'FILE_UPLOAD' | 'PULL_FROM_URL';

export interface TikTokConfig {
  /** Content Posting API, user info and the token endpoint (`/v2/oauth/token/`). */
  apiUrl: string;
  authorizeUrl: string;
  clientKey: string | undefined;
  clientSecret: string | undefined;
  /** Whether TikTok has audited the app: unaudited apps may only post SELF_ONLY. */
  audited: boolean;
  /** How videos reach TikTok: uploaded by us in chunks, or pulled by TikTok from our media URL. */
  videoSource: TikTokVideoSource;
  /** FILE_UPLOAD chunk size (5 MB to 64 MB). */
  chunkBytes: number;
  /** Longest wait for `status/fetch` to report PUBLISH_COMPLETE. */
  processingTimeoutMs: number;
  /** Waits between status checks grow from the first to the last. */
  pollMinMs: number;
  pollMaxMs: number;
}

/**
 * Reads TIKTOK_API_URL, TIKTOK_OAUTH_AUTHORIZE_URL, TIKTOK_CLIENT_KEY, TIKTOK_CLIENT_SECRET,
 * TIKTOK_APP_AUDITED, TIKTOK_VIDEO_SOURCE, TIKTOK_CHUNK_BYTES and TIKTOK_PROCESSING_TIMEOUT_MS;
 * throws on bad values at start.
 */
export function tiktokConfigFromEnv(env: Env): TikTokConfig {
  const chunkBytes = envPositiveInt(env, 'TIKTOK_CHUNK_BYTES', 10 * 1024 * 1024);
  if (chunkBytes < minChunkBytes || chunkBytes > maxChunkBytes) {
    throw new Error(
      `TIKTOK_CHUNK_BYTES must be between ${minChunkBytes} (5 MB) and ${maxChunkBytes} (64 MB), got ${chunkBytes}`,
    );
  }
  const videoSource = (env.TIKTOK_VIDEO_SOURCE || 'FILE_UPLOAD').toUpperCase();
  if (videoSource !== 'FILE_UPLOAD' && videoSource !== 'PULL_FROM_URL') {
    throw new Error(
      `TIKTOK_VIDEO_SOURCE must be FILE_UPLOAD or PULL_FROM_URL, got "${env.TIKTOK_VIDEO_SOURCE}"`,
    );
  }
  const audited = (env.TIKTOK_APP_AUDITED || 'false').toLowerCase();
  if (!['true', 'false', '1', '0', 'yes', 'no'].includes(audited)) {
    throw new Error(`TIKTOK_APP_AUDITED must be true or false, got "${env.TIKTOK_APP_AUDITED}"`);
  }
  // Checked as a URL, but kept as written: TikTok's consent URL ends in a slash.
  envBaseUrl(env, 'TIKTOK_OAUTH_AUTHORIZE_URL', defaultTikTokAuthorizeUrl);
  const authorizeUrl = env.TIKTOK_OAUTH_AUTHORIZE_URL || defaultTikTokAuthorizeUrl;
  return {
    apiUrl: envBaseUrl(env, 'TIKTOK_API_URL', defaultTikTokApiUrl),
    authorizeUrl,
    clientKey: env.TIKTOK_CLIENT_KEY || undefined,
    clientSecret: env.TIKTOK_CLIENT_SECRET || undefined,
    audited: ['true', '1', 'yes'].includes(audited),
    videoSource,
    chunkBytes,
    processingTimeoutMs: envPositiveInt(env, 'TIKTOK_PROCESSING_TIMEOUT_MS', 10 * 60_000),
    pollMinMs: 1_000,
    pollMaxMs: 10_000,
  };
}
