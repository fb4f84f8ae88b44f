import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultThreadsApiUrl = 'https://graph.threads.net';
export const defaultThreadsAuthorizeUrl = 'https://threads.net/oauth/authorize';
export const threadsApiVersion = 'v1.0';

export interface ThreadsConfig {
  /** Graph API host: containers, publishing, quota, profile and the token endpoints. */
  apiUrl: string;
  authorizeUrl: string;
  appId: string | undefined;
  appSecret: string | undefined;
  /** Waits between container status checks grow from the first to the last. */
  pollMinMs: number;
  pollMaxMs: number;
  /** Longest wait for a container (a video) to be processed. */
  processingTimeoutMs: number;
  /** Refresh a long-lived token when it has less than this left (tokens live 60 days). */
  refreshBeforeMs: number;
}

/**
 * Reads THREADS_API_URL, THREADS_OAUTH_AUTHORIZE_URL, THREADS_APP_ID, THREADS_APP_SECRET and
 * THREADS_PROCESSING_TIMEOUT_MS; throws on bad values at start.
 */
export function threadsConfigFromEnv(env: Env): ThreadsConfig {
  return {
    apiUrl: envBaseUrl(env, 'THREADS_API_URL', defaultThreadsApiUrl),
    authorizeUrl: envBaseUrl(env, 'THREADS_OAUTH_AUTHORIZE_URL', defaultThreadsAuthorizeUrl),
    appId: env.THREADS_APP_ID || undefined,
    appSecret: env.THREADS_APP_SECRET || undefined,
    pollMinMs: 1_000,
    pollMaxMs: 15_000,
    processingTimeoutMs: envPositiveInt(env, 'THREADS_PROCESSING_TIMEOUT_MS', 5 * 60_000),
    refreshBeforeMs: 7 * 24 * 60 * 60_000,
  };
}
