import { type ProblemCode, problem } from '../problems.ts';
import type { Problem } from '../schemas/problem.ts';
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
  // The store is down or refusing us: temporary, so 503 (try again), not a 500 that reads as a bug.
  unavailable: { status: 503, code: 'unavailable' },
};

/**
 * The HTTP status and problem code for a storage failure, for adapters. The error's message is
 * safe to show as the problem detail, except for `unavailable`, whose cause belongs in logs only
 * (`storageErrorProblem` answers it so).
 */
export function storageErrorStatus(error: StorageError): { status: number; code: ProblemCode } {
  return statusByCode[error.code];
}

/**
 * The problem a storage failure answers in both servers, with its headers: a store that is down
 * says when to try again (`Retry-After`, as every 503 `unavailable` does) and keeps its cause,
 * which may describe infrastructure, for the logs.
 */
export function storageErrorProblem(error: StorageError): {
  problem: Problem;
  headers: Record<string, string>;
} {
  const { code } = storageErrorStatus(error);
  if (error.code !== 'unavailable') return { problem: problem(code, error.message), headers: {} };
  return {
    problem: problem(code, 'Media storage is unavailable; try again later'),
    headers: { 'Retry-After': String(storageRetryAfterSeconds) },
  };
}

/** How long a client waits before trying a store that was down again (an outage, not a blip). */
const storageRetryAfterSeconds = 30;
