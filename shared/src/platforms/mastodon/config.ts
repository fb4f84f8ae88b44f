import { envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export interface MastodonConfig {
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_MASTODON. */
  concurrency: number;
  /** How long to wait for an instance to finish processing an upload before giving up. */
  mediaTimeoutMs: number;
  /** First pause between media status polls; later pauses grow to at most 5 s. */
  mediaPollIntervalMs: number;
  /** How long an instance's limits (`/api/v2/instance`) are reused before they are read again. */
  instanceCacheTtlMs: number;
}

export const defaultMastodonConfig: MastodonConfig = {
  concurrency: 4,
  mediaTimeoutMs: 120_000,
  mediaPollIntervalMs: 1_000,
  instanceCacheTtlMs: 60 * 60_000,
};

/** Reads MASTODON_MEDIA_TIMEOUT_MS and MASTODON_INSTANCE_CACHE_TTL_MS; throws on bad values at start. */
export function mastodonConfigFromEnv(env: Env): MastodonConfig {
  return {
    ...defaultMastodonConfig,
    mediaTimeoutMs: envPositiveInt(env, 'MASTODON_MEDIA_TIMEOUT_MS', defaultMastodonConfig.mediaTimeoutMs),
    instanceCacheTtlMs: envPositiveInt(
      env,
      'MASTODON_INSTANCE_CACHE_TTL_MS',
      defaultMastodonConfig.instanceCacheTtlMs,
    ),
  };
}
