import type { PlatformModule } from '../types.ts';
import { tumblrConfigFromEnv } from './config.ts';
import { createTumblrConnector } from './connector.ts';
import { tumblrManifest } from './manifest.ts';
import { TumblrPublisher } from './publisher.ts';

export { type TumblrConfig, tumblrConfigFromEnv } from './config.ts';
export type { TumblrCredentials, TumblrOptions } from './options.ts';
export { createTumblrConnector, TumblrPublisher, tumblrManifest };

/**
 * Tumblr blogs through API v2 (Neue Post Format) with OAuth 2. Settings: TUMBLR_API_URL,
 * TUMBLR_OAUTH_AUTHORIZE_URL, TUMBLR_CLIENT_ID, TUMBLR_CLIENT_SECRET (docs/platforms/tumblr.md).
 */
export const tumblrModule: PlatformModule = {
  id: 'tumblr',
  manifest: tumblrManifest,
  create: (env) => new TumblrPublisher(tumblrConfigFromEnv(env)),
  createConnector: (env) => createTumblrConnector(tumblrConfigFromEnv(env)),
};
