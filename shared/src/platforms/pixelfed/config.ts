import { envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export interface PixelfedConfig {
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_PIXELFED. */
  concurrency: number;
  /** How long to wait for the server to process an upload (videos) before giving up. */
  mediaTimeoutMs: number;
  /** First pause between media status polls; later pauses grow to at most 5 s. */
  mediaPollIntervalMs: number;
  /** How long an instance's limits (`/api/v1/instance`) are reused before they are read again. */
  instanceCacheTtlMs: number;
}

export const defaultPixelfedConfig: PixelfedConfig = {
  concurrency: 4,
  mediaTimeoutMs: 120_000,
  mediaPollIntervalMs: 1_000,
  instanceCacheTtlMs: 60 * 60_000,
};

/** Reads PIXELFED_MEDIA_TIMEOUT_MS and PIXELFED_INSTANCE_CACHE_TTL_MS; throws at start on bad values. */
export function pixelfedConfigFromEnv(env: Env): PixelfedConfig {
  const d = defaultPixelfedConfig;
  return {
    ...d,
    mediaTimeoutMs: envPositiveInt(env, 'PIXELFED_MEDIA_TIMEOUT_MS', d.mediaTimeoutMs),
    instanceCacheTtlMs: envPositiveInt(env, 'PIXELFED_INSTANCE_CACHE_TTL_MS', d.instanceCacheTtlMs),
  };
}
