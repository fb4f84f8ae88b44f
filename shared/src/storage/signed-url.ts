import { createHmac, timingSafeEqual } from 'node:crypto';
import { StorageError } from './types.ts';

/** What a self-signed upload URL binds. */
export interface UploadGrant {
  key: string;
  contentType: string;
  size: number;
  /** Unix seconds. */
  expires: number;
}

// A purpose prefix keeps these MACs from ever being valid for anything else signed with the secret.
const purpose = 'postwave-upload-v1';

export function signUploadGrant(secret: string, grant: UploadGrant): string {
  return createHmac('sha256', secret)
    .update([purpose, grant.key, grant.contentType, String(grant.size), String(grant.expires)].join('\n'))
    .digest('hex');
}

export function uploadGrantQuery(secret: string, grant: UploadGrant): URLSearchParams {
  return new URLSearchParams({
    type: grant.contentType,
    size: String(grant.size),
    expires: String(grant.expires),
    signature: signUploadGrant(secret, grant),
  });
}

/**
 * The grant a signed URL carries, once its signature verifies (compared in constant time) and it
 * has not expired. Throws `invalid_signature` or `expired`.
 */
export function verifyUploadGrant(
  secret: string,
  key: string,
  query: URLSearchParams,
  now: Date = new Date(),
): UploadGrant {
  const contentType = query.get('type') ?? '';
  const size = query.get('size') ?? '';
  const expires = query.get('expires') ?? '';
  const signature = query.get('signature') ?? '';
  if (
    !/^[1-9][0-9]{0,15}$/.test(size) ||
    !/^[0-9]{1,12}$/.test(expires) ||
    !/^[0-9a-f]{64}$/.test(signature)
  ) {
    throw new StorageError('invalid_signature', 'The upload URL is not a valid signed URL');
  }
  const grant: UploadGrant = { key, contentType, size: Number(size), expires: Number(expires) };
  const expected = Buffer.from(signUploadGrant(secret, grant), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new StorageError('invalid_signature', 'The upload URL signature does not match');
  }
  if (now.getTime() >= grant.expires * 1000) {
    throw new StorageError('expired', 'The upload URL has expired; request a new one');
  }
  return grant;
}
