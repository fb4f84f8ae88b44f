import { parseQuery } from '#server/http/query.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { ListDeliveriesQuery } from '#server/webhooks/schema.ts';
import { listDeliveries } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const GET = route(
  webhooksRoutes.listWebhookDeliveries,
  async ({ request, ctx, caller, params: { id } }) => {
    const query = parseQuery(ListDeliveriesQuery, request);
    return json(await listDeliveries(ctx, caller.workspaceId, id, query));
  },
);
