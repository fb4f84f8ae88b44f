import type { PlatformModule } from '../types.ts';
import { lemmyConfigFromEnv } from './config.ts';
import { lemmyManifest } from './manifest.ts';
import { LemmyPublisher } from './publisher.ts';

export { defaultLemmyConfig, type LemmyConfig, lemmyConfigFromEnv } from './config.ts';
export { lemmyManifest } from './manifest.ts';
export type { LemmyCredentials, LemmyOptions } from './options.ts';
export { LemmyPublisher } from './publisher.ts';

export const lemmyModule: PlatformModule = {
  id: lemmyManifest.id,
  manifest: lemmyManifest,
  create: (env) => new LemmyPublisher(lemmyConfigFromEnv(env)),
};
