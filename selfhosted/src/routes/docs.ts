import type { PublisherRegistry } from '@postwave/shared';
import { docsPageCsp, docsPageHtml, scalarBundle } from '@postwave/shared/openapi/index';
import { Router } from 'express';
import { type ApiRoutes, on } from '../api-routes.ts';
import type { Config } from '../config.ts';
import { buildOpenApi } from '../openapi.ts';

/** `/openapi.json` and its interactive rendering at `/docs` (Scalar, served from node_modules). */
export function docsRouter(routes: ApiRoutes, config: Config, publishers: PublisherRegistry): Router {
  const json = JSON.stringify(buildOpenApi(config.publicUrl, publishers, routes));
  const html = docsPageHtml('Postwave self-hosted API');
  const router = Router();
  on(router, routes.getOpenApi, (_req, res) => {
    res.type('application/json').set('cache-control', 'no-cache').send(json);
  });
  on(router, routes.getDocs, (_req, res) => {
    res.type('html').set('content-security-policy', docsPageCsp).send(html);
  });
  on(router, routes.getDocsScript, (_req, res) => {
    res.type('text/javascript').set('cache-control', 'public, max-age=3600').send(scalarBundle());
  });
  return router;
}
