import { livenessBody, runReadiness, type Storage } from '@postwave/shared';
import { Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';
import type { Publishing } from '../publishing.ts';

/**
 * `/health`: liveness, 200 while the process serves. `/ready`: 200 when it can do its work
 * (media storage answers and it is not shutting down), else 503 naming the failing check.
 */
export function healthRouter(
  routes: ApiRoutes,
  storage: Storage,
  publishing: Publishing,
  version: string,
): Router {
  const router = Router();
  on(router, routes.getHealth, (_req, res) => {
    res.set('cache-control', 'no-store').json({ ...livenessBody, version });
  });
  on(router, routes.getReadiness, async (_req, res) => {
    const report = await runReadiness([
      ['storage', () => storage.check()],
      ['shutdown', async () => publishing.assertAccepting()],
    ]);
    res
      .status(report.status)
      .set('cache-control', 'no-store')
      .json({ ...report.body, storage: storage.kind });
  });
  return router;
}
