import { exportMetrics, exportRequest } from '#server/analytics/export-metrics.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(analyticsRoutes.exportAnalytics, async ({ request, ctx, caller }) => {
  const parsed = await exportRequest(ctx, caller.workspaceId, new URL(request.url).searchParams);
  return new Response(exportMetrics(ctx, caller.workspaceId, parsed), {
    headers: {
      'content-type': parsed.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="postwave-analytics-${parsed.range.from}-${parsed.range.to}.${parsed.format}"`,
      'cache-control': 'no-store',
    },
  });
});
