import { metricsAccess, ProblemError, problem, renderMetrics } from '@postwave/shared';
import { Router } from 'express';

/** `/metrics` in Prometheus text format: 404 without METRICS_TOKEN, 401 without its bearer. */
export function metricsRouter(token: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    const access = metricsAccess(req.get('authorization'), token);
    if (access === 'disabled') return next();
    if (access === 'unauthorized') {
      throw new ProblemError(problem('unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN>'), {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    const { contentType, body } = await renderMetrics();
    res.status(200).set('cache-control', 'no-store').type(contentType).send(body);
  });
  return router;
}
