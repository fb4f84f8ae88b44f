import type { PlatformModule } from '../types.ts';
import { linkedInConfigFromEnv } from './config.ts';
import { linkedInManifest } from './manifest.ts';
import { createLinkedInConnector } from './oauth.ts';
import { createLinkedInPublisher } from './publisher.ts';

export type { LinkedInConfig } from './config.ts';
export type { LinkedInCredentials, LinkedInOptions } from './options.ts';
export { createLinkedInConnector, createLinkedInPublisher, linkedInManifest };

/**
 * LinkedIn members and organization pages through the versioned REST API. Settings:
 * LINKEDIN_API_URL, LINKEDIN_OAUTH_URL, LINKEDIN_VERSION, LINKEDIN_CLIENT_ID, LINKEDIN_CLIENT_SECRET,
 * LINKEDIN_ORGANIZATIONS, LINKEDIN_VIDEO_POLL_INTERVAL_MS, LINKEDIN_VIDEO_TIMEOUT_MS.
 */
export const linkedInModule: PlatformModule = {
  id: 'linkedin',
  manifest: linkedInManifest,
  create: (env) => createLinkedInPublisher(linkedInConfigFromEnv(env)),
  createConnector: (env) => createLinkedInConnector(linkedInConfigFromEnv(env)),
};
