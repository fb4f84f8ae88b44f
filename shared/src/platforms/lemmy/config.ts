import type { Env } from '../types.ts';

export interface LemmyConfig {
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_LEMMY. */
  concurrency: number;
}

export const defaultLemmyConfig: LemmyConfig = { concurrency: 4 };

/** Lemmy instances are user-chosen (credentials): nothing is read from the environment but concurrency. */
export function lemmyConfigFromEnv(_env: Env): LemmyConfig {
  return { ...defaultLemmyConfig };
}
