import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { queueRoutes } from '#server/queue/routes.ts';
import { QueueMoveRequest } from '#server/queue/schema.ts';
import { moveInQueue } from '#server/queue/service.ts';

export const runtime = 'nodejs';

export const POST = route(queueRoutes.moveInQueue, async ({ request, ctx, caller, params: { id } }) => {
  const { postId, move } = await readBody(request, QueueMoveRequest);
  return json(await moveInQueue(ctx, caller.workspaceId, id, postId, move));
});
