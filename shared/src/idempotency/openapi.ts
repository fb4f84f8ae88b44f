import { maxJsonDepth } from './fingerprint.ts';

/**
 * The `Idempotency-Key` header as both OpenAPI documents describe it: one protocol, one text.
 * `scope` says whose keys they are on this deployment; `storage` where they live.
 */
export function idempotencyKeyParameter(scope: string, storage: string) {
  return {
    name: 'Idempotency-Key',
    in: 'header' as const,
    description: [
      `Optional. 1 to 255 printable ASCII characters (e.g. a UUID), scoped to ${scope}; anything else is 400 \`invalid_request\`.`,
      `The fingerprint is the method, the path and the JSON body with object keys sorted (a body nested deeper than ${maxJsonDepth} levels is 400).`,
      'The first request is processed. Its answer is stored for 24 hours when anything was published or attempted',
      '(2xx, 207, 502) and replayed byte for byte, with `Idempotent-Replayed: true`, to a repeat with the same key and',
      'fingerprint, publishing nothing again. A request refused before publishing (400, 401, 404, 409, 413, 415, 422, 429',
      'and also 501 and 500) releases the key, so the corrected request may reuse it. A repeat while the first still',
      'runs is 409 `idempotency_in_progress` with `Retry-After: 1`; the same key with another fingerprint is 422',
      `\`idempotency_key_reused\`. ${storage}`,
    ].join(' '),
    schema: { type: 'string' as const, minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]{1,255}$' },
  };
}

/** The problem codes the protocol adds to an operation's responses. */
export const idempotencyProblems = {
  idempotency_in_progress:
    'a request with the same Idempotency-Key is still running; retry after `Retry-After`',
  idempotency_key_reused: 'the Idempotency-Key was used for a different request (method, path or body)',
} as const;
