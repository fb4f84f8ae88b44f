import { docsPageCsp, docsPageHtml } from '@postwave/shared/openapi/index';
import { apiDocsRoutes } from '#server/api/routes.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

const html = docsPageHtml('Postwave Scheduler API');

/** Interactive API reference: Scalar (from our node_modules) rendering /openapi.json. */
export const GET = route(
  apiDocsRoutes.getDocs,
  async () =>
    new Response(html, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': docsPageCsp },
    }),
);
