import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultMediumApiUrl = 'https://api.medium.com';

export interface MediumConfig {
  /** Medium's API host, without `/v1` (`https://api.medium.com`). */
  apiUrl: string;
}

/** Reads MEDIUM_API_URL; throws at start on a malformed value. */
export function mediumConfigFromEnv(env: Env): MediumConfig {
  return { apiUrl: envBaseUrl(env, 'MEDIUM_API_URL', defaultMediumApiUrl) };
}
