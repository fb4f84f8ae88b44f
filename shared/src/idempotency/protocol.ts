import { ProblemError, problem, problemContentType } from '../problems.ts';
import { jsonDepthExceeds, maxJsonDepth, requestFingerprint } from './fingerprint.ts';
import { idempotencyKeyPattern, idempotencyWindowMs } from './key.ts';
import type { IdempotencyStore, KeyRef, StoredResponse } from './store.ts';

export interface IdempotentRequest {
  store: IdempotencyStore;
  /** Whose keys these are: the self-hosted API key's scope, or the Scheduler user's id. */
  scope: string;
  /** The `Idempotency-Key` header as received; `null` or `undefined` when absent. */
  key: string | null | undefined;
  method: string;
  /** The request path without the query string. */
  path: string;
  /** The parsed JSON body. */
  body: unknown;
  now?: () => Date;
  /** Told when the store failed to record an answer that has already been computed. */
  onStoreError?: (error: unknown) => void;
}

/** What the operation answers when it does not throw a ProblemError. */
export interface OperationResult {
  status: number;
  body: unknown;
}

/** The answer to send: the exact bytes, plus headers (`Idempotent-Replayed`, `Retry-After` ...). */
export interface IdempotentResponse extends StoredResponse {
  headers: Record<string, string>;
}

export const jsonContentType = 'application/json; charset=utf-8';

/**
 * The Idempotency-Key protocol (docs/idempotency.md) around `operation` (which parses, validates and
 * publishes). Refusals of the key itself are thrown as ProblemError: 400 for a malformed key or a
 * body nested deeper than 32 levels, 409 `idempotency_in_progress` while the first request runs,
 * 422 `idempotency_key_reused` for another request under the same key. A ProblemError thrown by
 * `operation` becomes its answer. Answers that published or attempted something (2xx, 502) are
 * stored for 24 hours and replayed byte for byte; any other answer, or an unexpected error,
 * releases the key.
 */
export function runIdempotent(
  request: IdempotentRequest,
  operation: () => Promise<OperationResult>,
): Promise<IdempotentResponse> {
  const { key } = request;
  const refusal = keyRefusal(request);
  if (refusal) return Promise.reject(refusal);
  // Most requests carry no key: the answer is the operation's, with no layer of waiting around it.
  if (key === null || key === undefined) return answer(operation);
  return runWithKey(request, key, operation);
}

/** A malformed key, or a body too deep to fingerprint: refused before anything runs. */
function keyRefusal({ key, body }: IdempotentRequest): ProblemError | undefined {
  if (key !== null && key !== undefined && !idempotencyKeyPattern.test(key)) {
    return new ProblemError(
      problem('invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
        errors: [{ path: 'Idempotency-Key', code: 'invalid_idempotency_key', message: 'Use e.g. a UUID' }],
      }),
    );
  }
  if (jsonDepthExceeds(body, maxJsonDepth)) {
    return new ProblemError(
      problem('invalid_request', `The JSON body nests deeper than ${maxJsonDepth} levels`),
    );
  }
  return undefined;
}

async function runWithKey(
  request: IdempotentRequest,
  key: string,
  operation: () => Promise<OperationResult>,
): Promise<IdempotentResponse> {
  const now = request.now ?? (() => new Date());
  const ref: KeyRef = { scope: request.scope, key };
  const fingerprint = requestFingerprint(request.method, request.path, request.body);
  const claim = await request.store.claim(ref, fingerprint, now());
  if (claim.state !== 'claimed') {
    if (claim.fingerprint !== fingerprint) throw keyReused();
    if (claim.state === 'in_progress') throw inProgress();
    return { ...claim.response, headers: { 'Idempotent-Replayed': 'true' } };
  }

  let response: IdempotentResponse;
  try {
    response = await answer(operation);
  } catch (error) {
    await request.store.release(ref);
    throw error;
  }
  try {
    if (isStored(response.status)) {
      const { status, contentType, body } = response;
      await request.store.complete(
        ref,
        { status, contentType, body },
        new Date(now().getTime() + idempotencyWindowMs),
      );
    } else {
      await request.store.release(ref);
    }
  } catch (error) {
    // The answer exists (and may describe a publish): sending it beats failing the request.
    request.onStoreError?.(error);
  }
  return response;
}

/** Published or attempted: 2xx (207 included) and 502. Everything else was refused before publishing. */
export function isStored(status: number): boolean {
  return (status >= 200 && status < 300) || status === 502;
}

async function answer(operation: () => Promise<OperationResult>): Promise<IdempotentResponse> {
  try {
    const result = await operation();
    return {
      status: result.status,
      contentType: result.status >= 400 ? problemContentType : jsonContentType,
      body: JSON.stringify(result.body),
      headers: {},
    };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return {
      status: error.status,
      contentType: problemContentType,
      body: JSON.stringify(error.problem),
      headers: { ...error.headers },
    };
  }
}

function keyReused(): ProblemError {
  return new ProblemError(
    problem(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request; use a new key for a different post',
    ),
  );
}

function inProgress(): ProblemError {
  return new ProblemError(
    problem(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed; retry shortly',
    ),
    { 'Retry-After': '1' },
  );
}
