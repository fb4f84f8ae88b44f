import { createHash } from 'node:crypto';

/** The contract's `Idempotency-Key`: 1 to 255 visible ASCII characters. */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/** How long a key's first answer is replayed. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/**
 * A hash of a request body that ignores key order, so re-serialising the same JSON still matches.
 * `scope` (e.g. method and path) keeps one key from matching across different operations.
 */
export function requestFingerprint(body: unknown, scope = ''): string {
  return createHash('sha256')
    .update(`${scope}\n${canonicalJson(body)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
