import { metricsAccess, ProblemError, problem, renderMetrics } from '@postwave/shared';
import { Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';

/** `/metrics` in Prometheus text format: 404 without METRICS_TOKEN, 401 without its bearer. */
export function metricsRouter(routes: ApiRoutes, token: string | undefined): Router {
  const router = Router();
  on(router, routes.getMetrics, async (req, res, next) => {
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
