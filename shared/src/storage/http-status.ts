import type { ProblemCode } from '../problems.ts';
import type { StorageError, StorageErrorCode } from './types.ts';

const statusByCode: Record<StorageErrorCode, { status: number; code: ProblemCode }> = {
  too_large: { status: 413, code: 'payload_too_large' },
  unsupported_type: { status: 415, code: 'unsupported_media_type' },
  type_mismatch: { status: 415, code: 'unsupported_media_type' },
  invalid_signature: { status: 403, code: 'forbidden' },
  expired: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  invalid_key: { status: 404, code: 'not_found' },
  length_mismatch: { status: 400, code: 'invalid_request' },
  already_exists: { status: 409, code: 'invalid_status' },
  unavailable: { status: 500, code: 'internal' },
};

/**
 * The HTTP status and problem code for a storage failure, for adapters. The error's message is
 * safe to show as the problem detail, except for `unavailable`, whose cause belongs in logs only.
 */
export function storageErrorStatus(error: StorageError): { status: number; code: ProblemCode } {
  return statusByCode[error.code];
}
