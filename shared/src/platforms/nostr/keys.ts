import { decode, npubEncode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';
import { hexToBytes } from 'nostr-tools/utils';
import { PlatformError } from '../../errors.ts';
import type { PlatformAccount } from '../types.ts';
import { nostrCredentialsSchema } from './options.ts';

export interface NostrIdentity {
  secretKey: Uint8Array;
  /** Hex public key, as events carry it. */
  pubkey: string;
  npub: string;
}

/**
 * The account's key pair from `credentials.secretKey` (nsec or hex). When the account names a
 * `platformAccountId`, it must be this key's npub (or its hex public key): a key that signs for
 * someone else is refused rather than posting under the wrong name. Messages never echo the key.
 */
export function nostrIdentity(
  account: Pick<PlatformAccount, 'credentials' | 'platformAccountId'>,
): NostrIdentity {
  const parsed = nostrCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError(
      'credentials_invalid',
      'Nostr credentials need a secretKey: an nsec1… key or 64 hexadecimal characters',
    );
  const secretKey = secretKeyBytes(parsed.data.secretKey);
  let pubkey: string;
  try {
    pubkey = getPublicKey(secretKey);
  } catch {
    throw new PlatformError('credentials_invalid', 'The Nostr secretKey is not a valid private key');
  }
  const npub = npubEncode(pubkey);
  const claimed = account.platformAccountId.trim();
  if (claimed && claimed !== npub && claimed.toLowerCase() !== pubkey) {
    throw new PlatformError(
      'credentials_invalid',
      `The Nostr secretKey belongs to ${npub}, not to the account's platformAccountId`,
    );
  }
  return { secretKey, pubkey, npub };
}

function secretKeyBytes(value: string): Uint8Array {
  if (value.startsWith('nsec1')) {
    try {
      const decoded = decode(value);
      if (decoded.type === 'nsec') return decoded.data;
    } catch {
      // Reported below without the value.
    }
    throw new PlatformError('credentials_invalid', 'The Nostr secretKey is not a valid nsec1… key');
  }
  return hexToBytes(value.toLowerCase());
}
