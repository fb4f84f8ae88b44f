import { scalarBundle } from '@postwave/shared/openapi/index';
import { apiDocsRoutes } from '#server/api/routes.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(
  apiDocsRoutes.getDocsScript,
  async () =>
    new Response(new Uint8Array(scalarBundle()), {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
    }),
);
