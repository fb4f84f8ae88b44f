import { route } from '#server/http/route.ts';
import { importTemplateFor } from '#server/imports/template.ts';
import { importTemplateRoutes } from '#server/imports/template-routes.ts';

export const runtime = 'nodejs';

export const GET = route(importTemplateRoutes.importTemplate, async ({ ctx, caller }) => {
  return new Response(await importTemplateFor(ctx, caller.workspaceId, caller.userId), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="postwave-import-template.csv"',
      'cache-control': 'no-store',
    },
  });
});
