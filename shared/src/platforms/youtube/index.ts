import { googleClientFromEnv } from '../google-connector.ts';
import type { PlatformModule } from '../types.ts';
import { youTubeConfigFromEnv } from './config.ts';
import { createYouTubeConnector } from './connector.ts';
import { youTubeManifest } from './manifest.ts';
import { createYouTubePublisher } from './publisher.ts';

export { exchangeGoogleAuthorizationCode, type GoogleTokens, refreshGoogleToken } from '../google-oauth.ts';
export type { YouTubeConfig } from './config.ts';
export { youTubeManifest } from './manifest.ts';
export type { YouTubeCredentials, YouTubeOptions } from './options.ts';
export { createYouTubeConnector, createYouTubePublisher };

/**
 * YouTube through the Data API v3 with OAuth refresh tokens. Settings: YOUTUBE_API_URL,
 * YOUTUBE_UPLOAD_URL, GOOGLE_OAUTH_TOKEN_URL, YOUTUBE_UPLOAD_CHUNK_BYTES; connecting in the
 * Scheduler also GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_OAUTH_AUTHORIZE_URL.
 */
export const youTubeModule: PlatformModule = {
  id: youTubeManifest.id,
  manifest: youTubeManifest,
  create: (env) => createYouTubePublisher(youTubeConfigFromEnv(env)),
  createConnector: (env) => {
    const config = youTubeConfigFromEnv(env);
    return createYouTubeConnector(config, googleClientFromEnv(env), createYouTubePublisher(config));
  },
};
