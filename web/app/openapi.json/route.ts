import { schedulerOpenApi } from '#server/api/openapi.ts';
import { apiDocsRoutes } from '#server/api/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

// The document only depends on configuration: build it once per process.
let document: unknown;

export const GET = route(apiDocsRoutes.getOpenApi, async ({ ctx }) => {
  document ??= schedulerOpenApi(ctx.config.appUrl, ctx.publishers);
  return json(document);
});
