import type { PlatformModule } from '../types.ts';
import { nostrConfigFromEnv } from './config.ts';
import { nostrManifest } from './manifest.ts';
import { NostrPublisher } from './publisher.ts';

export { defaultNostrConfig, type NostrConfig, nostrConfigFromEnv } from './config.ts';
export { nostrManifest } from './manifest.ts';
export type { NostrCredentials, NostrOptions } from './options.ts';
export { NostrPublisher } from './publisher.ts';

export const nostrModule: PlatformModule = {
  id: nostrManifest.id,
  manifest: nostrManifest,
  create: (env) => new NostrPublisher(nostrConfigFromEnv(env)),
};
