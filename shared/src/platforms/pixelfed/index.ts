import type { PlatformModule } from '../types.ts';
import { pixelfedConfigFromEnv } from './config.ts';
import { pixelfedManifest } from './manifest.ts';
import { PixelfedPublisher } from './publisher.ts';

export { defaultPixelfedConfig, type PixelfedConfig, pixelfedConfigFromEnv } from './config.ts';
export { defaultPixelfedLimits } from './limits.ts';
export { pixelfedManifest } from './manifest.ts';
export type { PixelfedCredentials, PixelfedOptions } from './options.ts';
export { PixelfedPublisher } from './publisher.ts';

export const pixelfedModule: PlatformModule = {
  id: pixelfedManifest.id,
  manifest: pixelfedManifest,
  create: (env) => new PixelfedPublisher(pixelfedConfigFromEnv(env)),
};
