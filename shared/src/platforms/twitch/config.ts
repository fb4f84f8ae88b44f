import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultTwitchApiUrl = 'https://api.twitch.tv/helix';
export const defaultTwitchOAuthUrl = 'https://id.twitch.tv/oauth2';

export interface TwitchConfig {
  /** Helix (`/chat/messages`, `/users`). */
  apiUrl: string;
  /** `authorize`, `token` and `validate`. */
  oauthUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  concurrency: number;
}

/** Reads TWITCH_API_URL, TWITCH_OAUTH_URL, TWITCH_CLIENT_ID, TWITCH_CLIENT_SECRET; throws on a bad URL at start. */
export function twitchConfigFromEnv(env: Env): TwitchConfig {
  return {
    apiUrl: envBaseUrl(env, 'TWITCH_API_URL', defaultTwitchApiUrl),
    oauthUrl: envBaseUrl(env, 'TWITCH_OAUTH_URL', defaultTwitchOAuthUrl),
    clientId: env.TWITCH_CLIENT_ID || undefined,
    clientSecret: env.TWITCH_CLIENT_SECRET || undefined,
    concurrency: 4,
  };
}
