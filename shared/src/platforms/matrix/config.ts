import { envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

export interface MatrixConfig {
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_MATRIX. */
  concurrency: number;
  /** How long a homeserver's discovery, spec versions and upload limit are reused. */
  serverCacheTtlMs: number;
}

export const defaultMatrixConfig: MatrixConfig = { concurrency: 8, serverCacheTtlMs: 60 * 60_000 };

/** Reads MATRIX_SERVER_CACHE_TTL_MS; throws on a bad value at start. */
export function matrixConfigFromEnv(env: Env): MatrixConfig {
  return {
    ...defaultMatrixConfig,
    serverCacheTtlMs: envPositiveInt(env, 'MATRIX_SERVER_CACHE_TTL_MS', defaultMatrixConfig.serverCacheTtlMs),
  };
}
