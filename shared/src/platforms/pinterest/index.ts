import type { PlatformModule } from '../types.ts';
import { pinterestConfigFromEnv } from './config.ts';
import { pinterestManifest } from './manifest.ts';
import { createPinterestConnector, refreshPinterestTokens } from './oauth.ts';
import { createPinterestPublisher } from './publisher.ts';

export type { PinterestConfig } from './config.ts';
export type { PinterestCredentials, PinterestOptions } from './options.ts';
export { createPinterestConnector, createPinterestPublisher, pinterestManifest, refreshPinterestTokens };

/**
 * Pinterest boards through API v5 with OAuth tokens of the login that owns them. Settings:
 * PINTEREST_API_URL, PINTEREST_OAUTH_AUTHORIZE_URL, PINTEREST_APP_ID, PINTEREST_APP_SECRET,
 * PINTEREST_PROCESSING_TIMEOUT_MS.
 */
export const pinterestModule: PlatformModule = {
  id: pinterestManifest.id,
  manifest: pinterestManifest,
  create: (env) => createPinterestPublisher(pinterestConfigFromEnv(env)),
  createConnector: (env) => createPinterestConnector(pinterestConfigFromEnv(env)),
};
