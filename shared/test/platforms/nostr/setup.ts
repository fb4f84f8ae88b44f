import { npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';
import { bytesToHex } from 'nostr-tools/utils';
import { silentLogger } from '../../../src/logger.ts';
import { defaultNostrConfig, type NostrConfig, NostrPublisher } from '../../../src/platforms/nostr/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';

export { fastRetries, rejection } from '../../support/platform-testing.ts';

/** A fixed test key (never a real identity's). */
export const secretKey = new Uint8Array(32).map((_, i) => i + 1);
export const secretHex = bytesToHex(secretKey);
export const nsec = nsecEncode(secretKey);
export const pubkey = getPublicKey(secretKey);
export const npub = npubEncode(pubkey);

export function publisherFor(config: Partial<NostrConfig> = {}): NostrPublisher {
  return new NostrPublisher({ ...defaultNostrConfig, relayTimeoutMs: 400, ...config });
}

export function account(overrides: Partial<PlatformAccount> = {}): PlatformAccount {
  return {
    id: 'nostr-1',
    platform: 'nostr',
    platformAccountId: npub,
    credentials: { secretKey: nsec },
    ...overrides,
  };
}

let contexts = 0;
export function context(overrides: Partial<PublishContext> = {}): PublishContext {
  return {
    signal: AbortSignal.timeout(10_000),
    idempotencyKey: `post-${++contexts}:nostr-1`,
    logger: silentLogger,
    ...overrides,
  };
}
