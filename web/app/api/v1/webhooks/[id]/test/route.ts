import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { sendTestEvent } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const POST = route(webhooksRoutes.testWebhook, async ({ ctx, caller, params: { id } }) => {
  return json(await sendTestEvent(ctx, caller.workspaceId, id));
});
