import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultDevtoApiUrl = 'https://dev.to/api';

export interface DevtoConfig {
  /** The Forem API base, `https://dev.to/api` (another Forem's `https://<host>/api` works too). */
  apiUrl: string;
}

/** Reads DEVTO_API_URL; throws at start on a malformed value. */
export function devtoConfigFromEnv(env: Env): DevtoConfig {
  return { apiUrl: envBaseUrl(env, 'DEVTO_API_URL', defaultDevtoApiUrl) };
}
