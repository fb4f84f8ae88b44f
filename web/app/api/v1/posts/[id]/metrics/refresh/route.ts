import { refreshPostMetrics } from '#server/analytics/refresh-post-metrics.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';
export const maxDuration = 60;

export const POST = route(analyticsRoutes.refreshPostMetrics, async ({ ctx, caller, params }) =>
  json(await refreshPostMetrics(ctx, caller.workspaceId, params.id), 202),
);
