import type { PlatformModule } from '../types.ts';
import { blueskyConfigFromEnv } from './config.ts';
import { BlueskyPublisher } from './publisher.ts';

export type { BlueskyCredentials, BlueskyOptions } from './options.ts';
export { BlueskyPublisher } from './publisher.ts';

export const blueskyModule: PlatformModule = {
  id: 'bluesky',
  create: (env) => new BlueskyPublisher(blueskyConfigFromEnv(env)),
};
