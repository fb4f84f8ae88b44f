import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { redeliver } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const POST = route(
  webhooksRoutes.redeliverWebhookDelivery,
  async ({ ctx, caller, params: { id, deliveryId } }) => {
    return json(await redeliver(ctx, caller.workspaceId, id, deliveryId), 202);
  },
);
