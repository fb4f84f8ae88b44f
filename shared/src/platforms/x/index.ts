import type { PlatformModule } from '../types.ts';
import { xConfigFromEnv } from './config.ts';
import { createXConnector } from './connector.ts';
import { xManifest } from './manifest.ts';
import { createXPublisher } from './publisher.ts';

export type { XConfig } from './config.ts';
export { xWeightedLength } from './count.ts';
export type { XCredentials, XOptions } from './options.ts';
export { createXConnector, createXPublisher, xManifest };

/**
 * X through API v2 with OAuth 2.0 (PKCE) user tokens. Settings: X_API_URL, X_OAUTH_AUTHORIZE_URL,
 * X_CLIENT_ID, X_CLIENT_SECRET, X_MEDIA_CHUNK_BYTES, X_RATE_LIMIT_MAX_WAIT_MS.
 */
export const xModule: PlatformModule = {
  id: 'x',
  manifest: xManifest,
  create: (env) => createXPublisher(xConfigFromEnv(env)),
  createConnector: (env) => createXConnector(xConfigFromEnv(env)),
};
