import type { PlatformModule } from '../types.ts';
import { twitchConfigFromEnv } from './config.ts';
import { createTwitchConnector } from './connector.ts';
import { twitchManifest } from './manifest.ts';
import { TwitchPublisher } from './publisher.ts';

export { type TwitchConfig, twitchConfigFromEnv } from './config.ts';
export type { TwitchCredentials, TwitchOptions } from './options.ts';
export { TwitchPublisher, validateTwitchMessage } from './publisher.ts';
export { createTwitchConnector, twitchManifest };

/**
 * Twitch chat messages as the broadcaster (Helix). Settings: TWITCH_API_URL, TWITCH_OAUTH_URL,
 * TWITCH_CLIENT_ID, TWITCH_CLIENT_SECRET (docs/platforms/twitch.md).
 */
export const twitchModule: PlatformModule = {
  id: 'twitch',
  manifest: twitchManifest,
  create: (env) => new TwitchPublisher(twitchConfigFromEnv(env)),
  createConnector: (env) => createTwitchConnector(twitchConfigFromEnv(env)),
};
