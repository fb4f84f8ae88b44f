import { getBestTimes } from '#server/analytics/get-best-times.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(analyticsRoutes.getBestTimes, async ({ ctx, caller, params }) =>
  json(await getBestTimes(ctx, caller.workspaceId, params.id)),
);
