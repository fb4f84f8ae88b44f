import { getAccountSeries } from '#server/analytics/get-account-series.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(analyticsRoutes.getAccountMetrics, async ({ request, ctx, caller, params }) =>
  json(await getAccountSeries(ctx, caller.workspaceId, params.id, new URL(request.url).searchParams)),
);
