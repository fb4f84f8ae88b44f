import {
  idempotencyKeyPattern,
  invalidRequest,
  type NormalizedPost,
  ProblemError,
  parsePostRequest,
  problem,
  requestFingerprint,
  ValidationRequest,
} from '@postwave/shared';
import { type Request, type Response, Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';
import type { IdempotencyStore, StoredResponse } from '../idempotency.ts';
import type { Publishing } from '../publishing.ts';

export function postsRouter(
  routes: ApiRoutes,
  publishing: Publishing,
  idempotency: IdempotencyStore,
): Router {
  const router = Router();

  on(router, routes.validatePost, async (req, res) => {
    const parsed = ValidationRequest.safeParse(req.body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    res.json(await publishing.validate(parsed.data));
  });

  on(router, routes.publishPost, async (req, res) => {
    const post = parsePostRequest(req.body);
    if (post.postingMode !== 'now') {
      throw new ProblemError(
        problem(
          'not_supported',
          `postingMode "${post.postingMode}" needs the Postwave Scheduler; this self-hosted server only publishes immediately ("now")`,
        ),
      );
    }
    const key = req.get('idempotency-key');
    if (key === undefined) return send(res, await publishing.publishNow(post));
    if (!idempotencyKeyPattern.test(key)) {
      throw new ProblemError(
        problem('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters'),
      );
    }
    await publishOnce(req, res, post, key, publishing, idempotency);
  });

  return router;
}

/**
 * Only answers that published something are remembered: a request refused before publishing
 * (invalid, unauthorised) releases its key, so the corrected request may reuse it.
 */
async function publishOnce(
  req: Request,
  res: Response,
  post: NormalizedPost,
  key: string,
  publishing: Publishing,
  idempotency: IdempotencyStore,
): Promise<void> {
  const claim = await idempotency.begin(key, requestFingerprint(req.body));
  if (claim.kind === 'conflict') {
    throw new ProblemError(
      problem('validation_failed', 'This Idempotency-Key was already used with a different request body', {
        errors: [
          {
            path: 'Idempotency-Key',
            code: 'idempotency_key_reused',
            message: 'Use a new key for a different post',
          },
        ],
      }),
    );
  }
  if (claim.kind === 'replay') {
    res.set('idempotent-replayed', 'true');
    return send(res, claim.response);
  }
  let response: StoredResponse | undefined;
  try {
    response = await publishing.publishNow(post, key);
  } finally {
    claim.finish(response);
  }
  send(res, response);
}

function send(res: Response, response: StoredResponse): void {
  if (response.status >= 400) res.type('application/problem+json');
  res.status(response.status).json(response.body);
}
