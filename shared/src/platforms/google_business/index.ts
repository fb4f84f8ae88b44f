import { googleClientFromEnv } from '../google-connector.ts';
import type { PlatformModule } from '../types.ts';
import { googleBusinessConfigFromEnv } from './config.ts';
import { createGoogleBusinessConnector } from './connector.ts';
import { googleBusinessManifest } from './manifest.ts';
import { createGoogleBusinessPublisher } from './publisher.ts';

export type { GoogleBusinessConfig } from './config.ts';
export type { GoogleBusinessCredentials, GoogleBusinessOptions } from './options.ts';
export { createGoogleBusinessConnector, createGoogleBusinessPublisher, googleBusinessManifest };

/**
 * Google Business Profile local posts. Settings: GOOGLE_BUSINESS_API_URL,
 * GOOGLE_BUSINESS_ACCOUNTS_URL, GOOGLE_BUSINESS_INFORMATION_URL, GOOGLE_OAUTH_TOKEN_URL,
 * GOOGLE_BUSINESS_TIME_ZONE; connecting in the Scheduler also GOOGLE_CLIENT_ID,
 * GOOGLE_CLIENT_SECRET and GOOGLE_OAUTH_AUTHORIZE_URL (the YouTube client).
 */
export const googleBusinessModule: PlatformModule = {
  id: googleBusinessManifest.id,
  manifest: googleBusinessManifest,
  create: (env) => createGoogleBusinessPublisher(googleBusinessConfigFromEnv(env)),
  createConnector: (env) =>
    createGoogleBusinessConnector(googleBusinessConfigFromEnv(env), googleClientFromEnv(env)),
};
