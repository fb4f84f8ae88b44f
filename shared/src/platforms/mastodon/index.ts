import type { PlatformModule } from '../types.ts';
import { mastodonConfigFromEnv } from './config.ts';
import { mastodonManifest } from './manifest.ts';
import { MastodonPublisher } from './publisher.ts';

export { defaultMastodonConfig, type MastodonConfig, mastodonConfigFromEnv } from './config.ts';
export { mastodonLength } from './count.ts';
export { defaultInstanceLimits, type InstanceLimits } from './instance.ts';
export { mastodonManifest } from './manifest.ts';
export type { MastodonCredentials, MastodonOptions } from './options.ts';
export { MastodonPublisher } from './publisher.ts';

export const mastodonModule: PlatformModule = {
  id: mastodonManifest.id,
  manifest: mastodonManifest,
  create: (env) => new MastodonPublisher(mastodonConfigFromEnv(env)),
};
