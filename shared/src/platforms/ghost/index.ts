import type { PlatformModule } from '../types.ts';
import { ghostManifest } from './manifest.ts';
import { GhostPublisher } from './publisher.ts';

export { ghostManifest } from './manifest.ts';
export type { GhostCredentials, GhostOptions } from './options.ts';
export { GhostPublisher } from './publisher.ts';
export { adminToken } from './token.ts';

/** Ghost through its Admin API with an integration's key; the site is user-chosen (no env). */
export const ghostModule: PlatformModule = {
  id: ghostManifest.id,
  manifest: ghostManifest,
  create: () => new GhostPublisher(),
};
