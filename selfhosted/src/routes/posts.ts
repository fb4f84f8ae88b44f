import { ProblemError, parsePostRequest, parseValidationRequest, problem } from '@postwave/shared';
import { Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';
import type { Idempotency } from '../idempotency.ts';
import type { Publishing } from '../publishing.ts';

export function postsRouter(routes: ApiRoutes, publishing: Publishing, idempotency: Idempotency): Router {
  const router = Router();

  on(router, routes.validatePost, async (req, res) => {
    const parsed = parseValidationRequest(req.body);
    res.json(parsed.invalid ?? (await publishing.validate(parsed.post)));
  });

  on(router, routes.publishPost, (req, res) =>
    // Not async: a refusal thrown here is caught where the operation is called, like a rejection.
    idempotency.respond(req, res, () => {
      const post = parsePostRequest(req.body);
      if (post.postingMode !== 'now') {
        throw new ProblemError(
          problem(
            'not_supported',
            `postingMode "${post.postingMode}" needs the Postwave Scheduler; this self-hosted server only publishes immediately ("now")`,
          ),
        );
      }
      return publishing.publishNow(post, req.get('idempotency-key'));
    }),
  );

  return router;
}
