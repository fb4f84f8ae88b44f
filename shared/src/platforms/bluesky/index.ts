import type { PlatformModule } from '../types.ts';
import { blueskyConfigFromEnv } from './config.ts';
import { blueskyManifest } from './manifest.ts';
import { BlueskyPublisher } from './publisher.ts';

export { blueskyManifest } from './manifest.ts';
export type { BlueskyCredentials, BlueskyOptions } from './options.ts';
export { BlueskyPublisher } from './publisher.ts';

export const blueskyModule: PlatformModule = {
  id: blueskyManifest.id,
  manifest: blueskyManifest,
  create: (env) => new BlueskyPublisher(blueskyConfigFromEnv(env)),
};
