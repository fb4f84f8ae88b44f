import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultVkApiUrl = 'https://api.vk.ru/method';

export interface VkConfig {
  /** Where methods live: `{VK_API_URL}/{method}`. */
  apiUrl: string;
  concurrency: number;
  /** How long to wait before asking again after error 6 (too many requests per second). */
  tooManyRequestsWaitMs: number;
}

/** Reads VK_API_URL; throws on a bad URL at start. */
export function vkConfigFromEnv(env: Env): VkConfig {
  return {
    apiUrl: envBaseUrl(env, 'VK_API_URL', defaultVkApiUrl),
    concurrency: 3,
    tooManyRequestsWaitMs: 400,
  };
}
