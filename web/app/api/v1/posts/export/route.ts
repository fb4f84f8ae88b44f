import { exportRoutes } from '#server/exports/routes.ts';
import { parseExportQuery } from '#server/exports/schema.ts';
import { exportPosts } from '#server/exports/service.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(exportRoutes.exportPosts, async ({ request, ctx, caller }) => {
  const { format, filter } = parseExportQuery(new URL(request.url).searchParams);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(exportPosts(ctx, caller.workspaceId, format, filter), {
    headers: {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="postwave-posts-${day}.${format}"`,
      'cache-control': 'no-store',
    },
  });
});
