import type { PlatformModule } from '../types.ts';
import { misskeyConfigFromEnv } from './config.ts';
import { misskeyManifest } from './manifest.ts';
import { MisskeyPublisher } from './publisher.ts';

export { defaultMisskeyConfig, type MisskeyConfig, misskeyConfigFromEnv } from './config.ts';
export { misskeyManifest } from './manifest.ts';
export type { MisskeyCredentials, MisskeyOptions } from './options.ts';
export { MisskeyPublisher } from './publisher.ts';

export const misskeyModule: PlatformModule = {
  id: misskeyManifest.id,
  manifest: misskeyManifest,
  create: (env) => new MisskeyPublisher(misskeyConfigFromEnv(env)),
};
