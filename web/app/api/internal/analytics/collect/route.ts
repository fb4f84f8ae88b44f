import { runCollection } from '#server/analytics/collector.ts';
import { analyticsRoutes } from '#server/analytics/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { requireDispatchSecret } from '#server/security/dispatch-secret.ts';

export const runtime = 'nodejs';
export const maxDuration = 60;

export const POST = route(analyticsRoutes.collectAnalytics, async ({ request, ctx }) => {
  requireDispatchSecret(request, ctx);
  return json(await runCollection(ctx));
});
