import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultFarcasterApiUrl = 'https://api.neynar.com';

export interface FarcasterConfig {
  /** Neynar's API (`/v2/farcaster/...`). */
  apiUrl: string;
  /** The operator's Neynar API key, sent as `x-api-key`. */
  apiKey: string | undefined;
  concurrency: number;
}

/** Reads FARCASTER_API_URL and NEYNAR_API_KEY; throws on a bad URL at start. */
export function farcasterConfigFromEnv(env: Env): FarcasterConfig {
  return {
    apiUrl: envBaseUrl(env, 'FARCASTER_API_URL', defaultFarcasterApiUrl),
    apiKey: env.NEYNAR_API_KEY || undefined,
    concurrency: 4,
  };
}
