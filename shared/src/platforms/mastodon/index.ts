import type { PlatformModule } from '../types.ts';
import { mastodonConfigFromEnv } from './config.ts';
import { MastodonPublisher } from './publisher.ts';

export { defaultMastodonConfig, type MastodonConfig, mastodonConfigFromEnv } from './config.ts';
export { mastodonLength } from './count.ts';
export { defaultInstanceLimits, type InstanceLimits } from './instance.ts';
export type { MastodonCredentials, MastodonOptions } from './options.ts';
export { MastodonPublisher } from './publisher.ts';

export const mastodonModule: PlatformModule = {
  id: 'mastodon',
  create: (env) => new MastodonPublisher(mastodonConfigFromEnv(env)),
};
