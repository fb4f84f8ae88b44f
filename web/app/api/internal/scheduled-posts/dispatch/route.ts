import { runCronDispatch } from '#server/dispatch/cron.ts';
import { dispatchRoutes } from '#server/dispatch/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { requireDispatchSecret } from '#server/security/dispatch-secret.ts';

export const runtime = 'nodejs';
export const maxDuration = 60;

export const POST = route(dispatchRoutes.dispatchScheduledPosts, async ({ request, ctx }) => {
  requireDispatchSecret(request, ctx);
  const summary = await runCronDispatch(ctx);
  return json(summary);
});
