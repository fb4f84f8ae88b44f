import type { PlatformModule } from '../types.ts';
import { farcasterConfigFromEnv } from './config.ts';
import { farcasterManifest } from './manifest.ts';
import { FarcasterPublisher } from './publisher.ts';

export { type FarcasterConfig, farcasterConfigFromEnv } from './config.ts';
export type { FarcasterCredentials, FarcasterOptions } from './options.ts';
export { castIdem, FarcasterPublisher } from './publisher.ts';
export { farcasterManifest };

/**
 * Farcaster casts through Neynar with a managed signer per account. Settings: FARCASTER_API_URL,
 * NEYNAR_API_KEY (docs/platforms/farcaster.md).
 */
export const farcasterModule: PlatformModule = {
  id: 'farcaster',
  manifest: farcasterManifest,
  create: (env) => new FarcasterPublisher(farcasterConfigFromEnv(env)),
};
