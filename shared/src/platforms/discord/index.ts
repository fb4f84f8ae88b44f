import type { PlatformModule } from '../types.ts';
import { discordConfigFromEnv } from './config.ts';
import { createDiscordPublisher } from './publisher.ts';

export type { DiscordConfig } from './config.ts';
export type { DiscordOptions } from './options.ts';
export { createDiscordPublisher };

/** Discord through channel webhooks. Settings: DISCORD_API_URL, DISCORD_MAX_FILE_BYTES, DISCORD_MAX_REQUEST_BYTES. */
export const discordModule: PlatformModule = {
  id: 'discord',
  create: (env) => createDiscordPublisher(discordConfigFromEnv(env)),
};
