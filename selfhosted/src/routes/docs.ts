import type { PublisherRegistry } from '@postwave/shared';
import { Router } from 'express';
import type { Config } from '../config.ts';
import { renderDocsPage } from '../docs-page.ts';
import { buildOpenApi } from '../openapi.ts';

/** `/openapi.json` and its readable rendering at `/docs`, both built once at start. */
export function docsRouter(config: Config, publishers: PublisherRegistry): Router {
  const document = buildOpenApi(config.publicUrl, publishers, config.maxUploadBytes);
  const json = JSON.stringify(document);
  const html = renderDocsPage(document);
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('cache-control', 'no-cache').send(json);
  });
  router.get('/docs', (_req, res) => {
    res
      .type('html')
      .set(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
      .send(html);
  });
  return router;
}
