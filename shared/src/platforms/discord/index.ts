import type { PlatformModule } from '../types.ts';
import { discordConfigFromEnv } from './config.ts';
import { discordManifest } from './manifest.ts';
import { createDiscordPublisher } from './publisher.ts';

export type { DiscordConfig } from './config.ts';
/** Discord through channel webhooks. Settings: DISCORD_API_URL, DISCORD_MAX_FILE_BYTES, DISCORD_MAX_REQUEST_BYTES. */
export { discordManifest } from './manifest.ts';
export type { DiscordOptions } from './options.ts';
export { createDiscordPublisher };

export const discordModule: PlatformModule = {
  id: discordManifest.id,
  manifest: discordManifest,
  create: (env) => createDiscordPublisher(discordConfigFromEnv(env)),
};
