import type { PlatformModule } from '../types.ts';
import { listmonkManifest } from './manifest.ts';
import { ListmonkPublisher } from './publisher.ts';

export { listmonkManifest } from './manifest.ts';
export type { ListmonkCredentials, ListmonkOptions } from './options.ts';
export { ListmonkPublisher } from './publisher.ts';

/** Listmonk campaigns through an API user; the server is user-chosen (no env). */
export const listmonkModule: PlatformModule = {
  id: listmonkManifest.id,
  manifest: listmonkManifest,
  create: () => new ListmonkPublisher(),
};
