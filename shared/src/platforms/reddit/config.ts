import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultRedditApiUrl = 'https://oauth.reddit.com';
export const defaultRedditAuthUrl = 'https://www.reddit.com';
/**
 * Reddit refuses (429) requests with a generic User-Agent and asks for
 * `<platform>:<app ID>:<version> (by /u/<username>)`; REDDIT_USER_AGENT sets the operator's own.
 */
export const defaultRedditUserAgent = 'server:postwave:1.0 (self-hosted Postwave)';

export interface RedditConfig {
  /** The OAuth API host (`https://oauth.reddit.com`): every authenticated call. */
  apiUrl: string;
  /** The www host (`https://www.reddit.com`): `/api/v1/authorize` and `/api/v1/access_token`. */
  authUrl: string;
  /** The Reddit app's credentials: connecting in the Scheduler and refreshing access tokens. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  userAgent: string;
  /** Longest wait for Reddit's rate-limit window to reset before the publish is retried later. */
  maxRateLimitWaitMs: number;
}

/**
 * Reads REDDIT_API_URL, REDDIT_AUTH_URL, REDDIT_CLIENT_ID, REDDIT_CLIENT_SECRET,
 * REDDIT_USER_AGENT and REDDIT_RATE_LIMIT_MAX_WAIT_MS; throws on bad values at start.
 */
export function redditConfigFromEnv(env: Env): RedditConfig {
  const userAgent = (env.REDDIT_USER_AGENT ?? '').trim() || defaultRedditUserAgent;
  if (/[\r\n]/.test(userAgent)) throw new Error('REDDIT_USER_AGENT must be one line');
  return {
    apiUrl: envBaseUrl(env, 'REDDIT_API_URL', defaultRedditApiUrl),
    authUrl: envBaseUrl(env, 'REDDIT_AUTH_URL', defaultRedditAuthUrl),
    clientId: env.REDDIT_CLIENT_ID || undefined,
    clientSecret: env.REDDIT_CLIENT_SECRET ?? undefined,
    userAgent,
    maxRateLimitWaitMs: envPositiveInt(env, 'REDDIT_RATE_LIMIT_MAX_WAIT_MS', 10_000),
  };
}
