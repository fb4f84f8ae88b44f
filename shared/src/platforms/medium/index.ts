import type { PlatformModule } from '../types.ts';
import { mediumConfigFromEnv } from './config.ts';
import { mediumManifest } from './manifest.ts';
import { createMediumPublisher } from './publisher.ts';

export { defaultMediumApiUrl, type MediumConfig, mediumConfigFromEnv } from './config.ts';
export { mediumManifest } from './manifest.ts';
export type { MediumCredentials, MediumOptions } from './options.ts';
export { createMediumPublisher };

/** Medium stories with an integration token. Settings: MEDIUM_API_URL. */
export const mediumModule: PlatformModule = {
  id: mediumManifest.id,
  manifest: mediumManifest,
  create: (env) => createMediumPublisher(mediumConfigFromEnv(env)),
};
