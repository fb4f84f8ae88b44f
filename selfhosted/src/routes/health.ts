import type { Storage } from '@postwave/shared';
import { Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';

const storageCheckTimeoutMs = 3_000;

export function healthRouter(routes: ApiRoutes, storage: Storage, version: string): Router {
  const router = Router();
  on(router, routes.getHealth, async (req, res) => {
    const reachable = await storageReachable(storage, req.log);
    res
      .status(reachable ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ status: reachable ? 'ok' : 'degraded', version, storage: { kind: storage.kind, reachable } });
  });
  return router;
}

async function storageReachable(storage: Storage, log?: { warn(obj: object, msg?: string): void }) {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      storage.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('storage check timed out')), storageCheckTimeoutMs);
      }),
    ]);
    return true;
  } catch (error) {
    log?.warn({ err: error }, 'storage unreachable');
    return false;
  } finally {
    clearTimeout(timer);
  }
}
