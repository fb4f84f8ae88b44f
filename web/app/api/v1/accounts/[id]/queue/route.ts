import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { queueRoutes } from '#server/queue/routes.ts';
import { QueueSettings } from '#server/queue/schema.ts';
import { getQueue, setQueue } from '#server/queue/service.ts';

export const runtime = 'nodejs';

export const GET = route(queueRoutes.getQueue, async ({ ctx, caller, params: { id } }) =>
  json(await getQueue(ctx, caller.workspaceId, id)),
);

export const PUT = route(queueRoutes.setQueue, async ({ request, ctx, caller, params: { id } }) => {
  const settings = await readBody(request, QueueSettings);
  return json(await setQueue(ctx, caller.workspaceId, id, settings));
});
