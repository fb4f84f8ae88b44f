import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { schedulerOpenApi } from '#server/openapi.ts';

export const runtime = 'nodejs';

// The document only depends on configuration: build it once per process.
let document: unknown;

export const GET = route(async (_request, ctx) => {
  document ??= schedulerOpenApi(ctx.config.appUrl, ctx.publishers);
  return json(document);
});
