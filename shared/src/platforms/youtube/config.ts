import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

/** Google requires every chunk but the last to be a multiple of this. */
export const uploadChunkQuantum = 256 * 1024;

export interface ResumePolicy {
  /** Failed chunk requests in a row (no progress in between) before the publish attempt gives up. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface YouTubeConfig {
  apiUrl: string;
  uploadUrl: string;
  tokenUrl: string;
  chunkBytes: number;
  resume: ResumePolicy;
}

export const defaultYouTubeApiUrl = 'https://www.googleapis.com/youtube/v3';
export const defaultYouTubeUploadUrl = 'https://www.googleapis.com/upload/youtube/v3';
export const defaultGoogleTokenUrl = 'https://oauth2.googleapis.com/token';
export const defaultChunkBytes = 8 * 1024 * 1024;
export const defaultResumePolicy: ResumePolicy = { attempts: 5, baseDelayMs: 1_000, maxDelayMs: 16_000 };

/**
 * Reads YOUTUBE_API_URL, YOUTUBE_UPLOAD_URL, GOOGLE_OAUTH_TOKEN_URL and YOUTUBE_UPLOAD_CHUNK_BYTES;
 * throws on bad values at start.
 */
export function youTubeConfigFromEnv(env: Env): YouTubeConfig {
  const chunkBytes = envPositiveInt(env, 'YOUTUBE_UPLOAD_CHUNK_BYTES', defaultChunkBytes);
  if (chunkBytes % uploadChunkQuantum !== 0) {
    throw new Error(
      `YOUTUBE_UPLOAD_CHUNK_BYTES must be a multiple of ${uploadChunkQuantum} (256 KiB), got ${chunkBytes}`,
    );
  }
  return {
    apiUrl: envBaseUrl(env, 'YOUTUBE_API_URL', defaultYouTubeApiUrl),
    uploadUrl: envBaseUrl(env, 'YOUTUBE_UPLOAD_URL', defaultYouTubeUploadUrl),
    tokenUrl: envBaseUrl(env, 'GOOGLE_OAUTH_TOKEN_URL', defaultGoogleTokenUrl),
    chunkBytes,
    resume: defaultResumePolicy,
  };
}
