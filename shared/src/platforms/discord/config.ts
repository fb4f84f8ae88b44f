import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultDiscordApiUrl = 'https://discord.com';

/** Discord's own limits for a webhook message. */
export const maxContentLength = 2000;
export const maxAttachments = 10;
export const maxUsernameLength = 80;

export interface DiscordLimits {
  /** Per file: 10 MiB on servers without boosts; boosted servers allow more. */
  maxFileBytes: number;
  /** All files of one message together. */
  maxRequestBytes: number;
}

export const defaultDiscordLimits: DiscordLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxRequestBytes: 25 * 1024 * 1024,
};

export interface DiscordConfig {
  /** Origin of the API, and the only origin webhook URLs may point at (besides Discord's own aliases). */
  apiUrl: string;
  limits: DiscordLimits;
}

/** Reads DISCORD_API_URL, DISCORD_MAX_FILE_BYTES and DISCORD_MAX_REQUEST_BYTES; throws on bad values at start. */
export function discordConfigFromEnv(env: Env): DiscordConfig {
  const maxFileBytes = envPositiveInt(env, 'DISCORD_MAX_FILE_BYTES', defaultDiscordLimits.maxFileBytes);
  return {
    apiUrl: envBaseUrl(env, 'DISCORD_API_URL', defaultDiscordApiUrl),
    limits: {
      maxFileBytes,
      maxRequestBytes: envPositiveInt(
        env,
        'DISCORD_MAX_REQUEST_BYTES',
        Math.max(maxFileBytes, defaultDiscordLimits.maxRequestBytes),
      ),
    },
  };
}
