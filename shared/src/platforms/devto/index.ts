import type { PlatformModule } from '../types.ts';
import { devtoConfigFromEnv } from './config.ts';
import { devtoManifest } from './manifest.ts';
import { createDevtoPublisher } from './publisher.ts';

export { type DevtoConfig, defaultDevtoApiUrl, devtoConfigFromEnv } from './config.ts';
export { devtoManifest } from './manifest.ts';
export type { DevtoCredentials, DevtoOptions } from './options.ts';
export { createDevtoPublisher };

/** Dev.to (Forem) articles with an API key. Settings: DEVTO_API_URL. */
export const devtoModule: PlatformModule = {
  id: devtoManifest.id,
  manifest: devtoManifest,
  create: (env) => createDevtoPublisher(devtoConfigFromEnv(env)),
};
