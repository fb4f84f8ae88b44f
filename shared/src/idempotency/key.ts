import { createHash } from 'node:crypto';

/** An `Idempotency-Key` (docs/idempotency.md): 1 to 255 printable ASCII characters (space through tilde). */
export const idempotencyKeyPattern = /^[\x20-\x7e]{1,255}$/;

/** How long a finished request's answer is replayed. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/**
 * A caller's scope for keys, derived from a secret that identifies it (the self-hosted API key),
 * so the secret itself is never kept as a map key or written anywhere.
 */
export function scopeFromSecret(secret: string): string {
  return createHash('sha256').update(`postwave/idempotency-scope\n${secret}`).digest('hex');
}
