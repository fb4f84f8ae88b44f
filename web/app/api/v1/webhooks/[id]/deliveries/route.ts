import { ProblemError, problem } from '@postwave/shared';
import { queryOf } from '#server/http/query.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { ListDeliveriesQuery } from '#server/webhooks/schema.ts';
import { listDeliveries } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const GET = route(
  webhooksRoutes.listWebhookDeliveries,
  async ({ request, ctx, caller, params: { id } }) => {
    const query = ListDeliveriesQuery.safeParse(queryOf(request));
    if (!query.success)
      throw new ProblemError(
        problem('invalid_request', 'status must be pending, delivered or failed; limit 1 to 200'),
      );
    return json(await listDeliveries(ctx, caller.workspaceId, id, query.data));
  },
);
