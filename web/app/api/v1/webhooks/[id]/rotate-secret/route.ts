import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { rotateWebhookSecret } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const POST = route(webhooksRoutes.rotateWebhookSecret, async ({ ctx, caller, params: { id } }) => {
  return json(await rotateWebhookSecret(ctx, caller.workspaceId, id));
});
