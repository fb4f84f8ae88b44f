import type { PlatformModule } from '../types.ts';
import { matrixConfigFromEnv } from './config.ts';
import { matrixManifest } from './manifest.ts';
import { MatrixPublisher } from './publisher.ts';

export type { MatrixConfig } from './config.ts';
export type { MatrixCredentials, MatrixOptions } from './options.ts';
export { MatrixPublisher, matrixManifest };

/** Matrix rooms on any homeserver the account names. Settings: MATRIX_SERVER_CACHE_TTL_MS. */
export const matrixModule: PlatformModule = {
  id: matrixManifest.id,
  manifest: matrixManifest,
  create: (env) => new MatrixPublisher(matrixConfigFromEnv(env)),
};
