import type { PlatformModule } from '../types.ts';
import { tiktokConfigFromEnv } from './config.ts';
import { tiktokManifest } from './manifest.ts';
import { createTikTokConnector, refreshTikTokTokens } from './oauth.ts';
import { createTikTokPublisher } from './publisher.ts';

export type { TikTokConfig } from './config.ts';
export type { TikTokCredentials, TikTokOptions } from './options.ts';
export { chunkPlan } from './upload.ts';
export { createTikTokConnector, createTikTokPublisher, refreshTikTokTokens, tiktokManifest };

/**
 * TikTok through the Content Posting API (direct post) with Login Kit OAuth v2 tokens. Settings:
 * TIKTOK_API_URL, TIKTOK_OAUTH_AUTHORIZE_URL, TIKTOK_CLIENT_KEY, TIKTOK_CLIENT_SECRET,
 * TIKTOK_APP_AUDITED, TIKTOK_VIDEO_SOURCE, TIKTOK_CHUNK_BYTES, TIKTOK_PROCESSING_TIMEOUT_MS.
 */
export const tiktokModule: PlatformModule = {
  id: tiktokManifest.id,
  manifest: tiktokManifest,
  create: (env) => createTikTokPublisher(tiktokConfigFromEnv(env)),
  createConnector: (env) => createTikTokConnector(tiktokConfigFromEnv(env)),
};
