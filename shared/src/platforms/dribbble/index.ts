import type { PlatformModule } from '../types.ts';
import { dribbbleConfigFromEnv } from './config.ts';
import { dribbbleManifest } from './manifest.ts';
import { createDribbbleConnector } from './oauth.ts';
import { createDribbblePublisher } from './publisher.ts';

export { type DribbbleConfig, dribbbleConfigFromEnv } from './config.ts';
export { imageSize } from './image-size.ts';
export { dribbbleManifest } from './manifest.ts';
export type { DribbbleCredentials, DribbbleOptions } from './options.ts';
export { createDribbbleConnector, createDribbblePublisher };

/**
 * Dribbble shots with an OAuth token. Settings: DRIBBBLE_API_URL, DRIBBBLE_OAUTH_URL,
 * DRIBBBLE_CLIENT_ID, DRIBBBLE_CLIENT_SECRET, DRIBBBLE_PROCESSING_TIMEOUT_MS.
 */
export const dribbbleModule: PlatformModule = {
  id: dribbbleManifest.id,
  manifest: dribbbleManifest,
  create: (env) => createDribbblePublisher(dribbbleConfigFromEnv(env)),
  createConnector: (env) => createDribbbleConnector(dribbbleConfigFromEnv(env)),
};
