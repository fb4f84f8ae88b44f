import {
  type IdempotentResponse,
  MemoryIdempotencyStore,
  type OperationResult,
  runIdempotent,
  scopeFromSecret,
} from '@postwave/shared';
import type { Request, Response } from 'express';

/**
 * This server's Idempotency-Key memory: the SDK's protocol over an in-process store, bounded by
 * IDEMPOTENCY_MAX_ENTRIES and forgotten on restart. Keys are scoped to the API key.
 */
export class Idempotency {
  readonly store: MemoryIdempotencyStore;
  readonly #scope: string;

  constructor(apiKey: string, maxEntries: number, store = new MemoryIdempotencyStore(maxEntries)) {
    this.store = store;
    this.#scope = scopeFromSecret(apiKey);
  }

  /** Runs `operation` under the request's Idempotency-Key (if any) and sends the answer. */
  async respond(req: Request, res: Response, operation: () => Promise<OperationResult>): Promise<void> {
    const answer = await runIdempotent(
      {
        store: this.store,
        scope: this.#scope,
        key: req.get('idempotency-key'),
        method: req.method,
        path: req.path,
        body: req.body,
        onStoreError: (error) => req.log?.error({ err: error }, 'could not record an idempotent answer'),
      },
      operation,
    );
    send(res, answer);
  }
}

function send(res: Response, answer: IdempotentResponse): void {
  res.status(answer.status).set(answer.headers).type(answer.contentType).send(answer.body);
}
