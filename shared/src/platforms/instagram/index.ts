import type { PlatformModule } from '../types.ts';
import { instagramConfigFromEnv } from './config.ts';
import { instagramManifest } from './manifest.ts';
import { createInstagramConnector } from './oauth.ts';
import { createInstagramPublisher } from './publisher.ts';

export type { InstagramConfig } from './config.ts';
export type { InstagramCredentials, InstagramOptions } from './options.ts';
export { createInstagramConnector, createInstagramPublisher, instagramManifest };

/**
 * Instagram professional accounts through the Content Publishing API. Settings:
 * INSTAGRAM_GRAPH_URL, INSTAGRAM_GRAPH_VERSION, INSTAGRAM_OAUTH_AUTHORIZE_URL, INSTAGRAM_OAUTH_TOKEN_URL,
 * INSTAGRAM_APP_ID, INSTAGRAM_APP_SECRET, INSTAGRAM_LOGIN, INSTAGRAM_POLL_INTERVAL_MS,
 * INSTAGRAM_PROCESSING_TIMEOUT_MS (and the FACEBOOK_* ones for accounts linked through a Page).
 */
export const instagramModule: PlatformModule = {
  id: 'instagram',
  manifest: instagramManifest,
  create: (env) => createInstagramPublisher(instagramConfigFromEnv(env)),
  createConnector: (env) => createInstagramConnector(instagramConfigFromEnv(env)),
};
