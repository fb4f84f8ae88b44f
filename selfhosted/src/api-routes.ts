import { isJsonContentType, notJsonProblem } from '@postwave/shared';
import {
  defineRoutes,
  docsPageRoutes,
  expressPath,
  operationsRoutes,
  type RouteSpec,
  takesJsonOnly,
} from '@postwave/shared/openapi/index';
import type { RequestHandler, Router } from 'express';
import { accountRoutes } from './route-specs/accounts.ts';
import type { ApiAuth } from './route-specs/common.ts';
import { mediaFileRoutes, uploadRoutes } from './route-specs/media.ts';
import { publishingRoutes } from './route-specs/publishing.ts';
import { serviceRoutes } from './route-specs/service.ts';

export { type ApiAuth, maxJsonBodyBytes, pascal } from './route-specs/common.ts';

export interface RouteNotes {
  maxUploadBytes: number;
  /** Platform ids whose options schemas are components named `<Pascal>Options`. */
  platformIds: readonly string[];
}

/**
 * Every route of the self-hosted server, declared once (one file per resource under
 * `route-specs/`): `app.ts` wires each handler from its entry (method, path, auth) and
 * `/openapi.json` lists the same entries, in this order.
 */
export function apiRoutes({ maxUploadBytes, platformIds }: RouteNotes) {
  return defineRoutes({
    ...docsPageRoutes<ApiAuth>('public'),
    ...operationsRoutes<ApiAuth>('public', {
      checks: 'media storage answers (`storage`) and it is not shutting down (`shutdown`)',
      metrics:
        '`postwave_publish_total{platform,outcome}` (`posted`, `failed`, `unknown`), ' +
        '`postwave_publish_duration_seconds{platform}` (histogram)',
      tags: ['Service'],
    }),
    ...accountRoutes,
    ...uploadRoutes(maxUploadBytes),
    ...publishingRoutes(platformIds),
    ...mediaFileRoutes(),
    ...serviceRoutes,
  } satisfies Record<string, RouteSpec<ApiAuth>>);
}

export type ApiRoutes = ReturnType<typeof apiRoutes>;

/** Mounts handlers on the method and path the route declares. */
export function on(router: Router, route: RouteSpec<ApiAuth>, ...handlers: RequestHandler[]): void {
  const guards = takesJsonOnly(route) ? [requireJsonBody] : [];
  router[route.method](expressPath(route.path), ...guards, ...handlers);
}

/**
 * 415 for a body under another type than JSON on a route that takes JSON only: express.json leaves
 * such a body unread, and the schema would then report a missing object (400) instead.
 */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
  next(hasBody && !isJsonContentType(req.headers['content-type']) ? notJsonProblem() : undefined);
};
