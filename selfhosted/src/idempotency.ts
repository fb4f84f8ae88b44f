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

/**
 * The answer's exact bytes, sent as they are: what Express's res.send would add for a string
 * (a charset on the type, Content-Length) is set here, without its content-type parsing on every
 * request. These answers are never 204 or 304, and never to a HEAD.
 */
function send(res: Response, answer: IdempotentResponse): void {
  res.statusCode = answer.status;
  for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
  res.setHeader('Content-Type', withCharset(answer.contentType));
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

const withCharset = (type: string) => (type.includes('charset=') ? type : `${type}; charset=utf-8`);
