import type { PlatformModule } from '../types.ts';
import { facebookConfigFromEnv } from './config.ts';
import { facebookManifest } from './manifest.ts';
import { createFacebookConnector } from './oauth.ts';
import { createFacebookPublisher } from './publisher.ts';

export type { FacebookConfig } from './config.ts';
export type { FacebookCredentials, FacebookOptions } from './options.ts';
export { createFacebookConnector, createFacebookPublisher, facebookManifest };

/**
 * Facebook Pages through the Graph API. Settings: FACEBOOK_GRAPH_URL, FACEBOOK_GRAPH_VIDEO_URL,
 * FACEBOOK_GRAPH_VERSION, FACEBOOK_OAUTH_AUTHORIZE_URL, FACEBOOK_APP_ID, FACEBOOK_APP_SECRET,
 * FACEBOOK_LOGIN_CONFIG_ID, FACEBOOK_RESUMABLE_VIDEO_BYTES.
 */
export const facebookModule: PlatformModule = {
  id: 'facebook',
  manifest: facebookManifest,
  create: (env) => createFacebookPublisher(facebookConfigFromEnv(env)),
  createConnector: (env) => createFacebookConnector(facebookConfigFromEnv(env)),
};
