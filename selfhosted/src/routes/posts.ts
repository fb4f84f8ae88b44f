import { invalidRequest, ProblemError, parsePostRequest, problem, ValidationRequest } from '@postwave/shared';
import { Router } from 'express';
import type { Idempotency } from '../idempotency.ts';
import type { Publishing } from '../publishing.ts';

export function postsRouter(publishing: Publishing, idempotency: Idempotency): Router {
  const router = Router();

  router.post('/api/v1/validation', async (req, res) => {
    const parsed = ValidationRequest.safeParse(req.body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    res.json(await publishing.validate(parsed.data));
  });

  router.post('/api/v1/posts', (req, res) =>
    idempotency.respond(req, res, async () => {
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
