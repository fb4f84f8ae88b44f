import { getPostMetrics } from '#server/analytics/get-post-metrics.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { parseHistoryFlag } from '#server/analytics/schema.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(analyticsRoutes.getPostMetrics, async ({ request, ctx, caller, params }) => {
  const history = parseHistoryFlag(new URL(request.url).searchParams);
  return json(await getPostMetrics(ctx, caller.workspaceId, params.id, { history }));
});
