import { envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export interface MisskeyConfig {
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_MISSKEY. */
  concurrency: number;
  /** How long an instance's `maxNoteTextLength` (`POST /api/meta`) is reused before it is read again. */
  instanceCacheTtlMs: number;
}

export const defaultMisskeyConfig: MisskeyConfig = { concurrency: 4, instanceCacheTtlMs: 60 * 60_000 };

/** Reads MISSKEY_INSTANCE_CACHE_TTL_MS; throws at start on a bad value. */
export function misskeyConfigFromEnv(env: Env): MisskeyConfig {
  return {
    ...defaultMisskeyConfig,
    instanceCacheTtlMs: envPositiveInt(
      env,
      'MISSKEY_INSTANCE_CACHE_TTL_MS',
      defaultMisskeyConfig.instanceCacheTtlMs,
    ),
  };
}
