import { getAnalyticsSummary } from '#server/analytics/get-summary.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(analyticsRoutes.getAnalytics, async ({ request, ctx, caller }) =>
  json(await getAnalyticsSummary(ctx, caller.workspaceId, new URL(request.url).searchParams)),
);
