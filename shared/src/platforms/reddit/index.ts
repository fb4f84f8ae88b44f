import type { PlatformModule } from '../types.ts';
import { redditConfigFromEnv } from './config.ts';
import { createRedditConnector } from './connector.ts';
import { redditManifest } from './manifest.ts';
import { createRedditPublisher } from './publisher.ts';

export type { RedditConfig } from './config.ts';
export type { RedditCredentials, RedditOptions } from './options.ts';
export { createRedditConnector, createRedditPublisher, redditManifest };

/**
 * Reddit through its OAuth API. Settings: REDDIT_API_URL, REDDIT_AUTH_URL, REDDIT_CLIENT_ID,
 * REDDIT_CLIENT_SECRET, REDDIT_USER_AGENT, REDDIT_RATE_LIMIT_MAX_WAIT_MS (docs/platforms/reddit.md).
 */
export const redditModule: PlatformModule = {
  id: redditManifest.id,
  manifest: redditManifest,
  create: (env) => createRedditPublisher(redditConfigFromEnv(env)),
  createConnector: (env) => createRedditConnector(redditConfigFromEnv(env)),
};
