import type { PlatformModule } from '../types.ts';
import { hashnodeConfigFromEnv } from './config.ts';
import { hashnodeManifest } from './manifest.ts';
import { createHashnodePublisher } from './publisher.ts';

export { defaultHashnodeApiUrl, type HashnodeConfig, hashnodeConfigFromEnv } from './config.ts';
export { hashnodeManifest } from './manifest.ts';
export type { HashnodeCredentials, HashnodeOptions } from './options.ts';
export { createHashnodePublisher };

/** Hashnode publications through the GraphQL API with a Personal Access Token. Settings: HASHNODE_API_URL. */
export const hashnodeModule: PlatformModule = {
  id: hashnodeManifest.id,
  manifest: hashnodeManifest,
  create: (env) => createHashnodePublisher(hashnodeConfigFromEnv(env)),
};
