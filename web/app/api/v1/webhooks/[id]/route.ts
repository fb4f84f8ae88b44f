import { actorOf } from '#server/audit/actor.ts';
import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { UpdateWebhookRequest } from '#server/webhooks/schema.ts';
import { deleteWebhook, getWebhook, updateWebhook } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const GET = route(webhooksRoutes.getWebhook, async ({ ctx, caller, params: { id } }) => {
  return json(await getWebhook(ctx, caller.workspaceId, id));
});

export const PATCH = route(webhooksRoutes.updateWebhook, async ({ request, ctx, caller, params: { id } }) => {
  const patch = await readBody(request, UpdateWebhookRequest);
  return json(await updateWebhook(ctx, caller.workspaceId, id, patch));
});

export const DELETE = route(webhooksRoutes.deleteWebhook, async ({ ctx, caller, params: { id } }) => {
  await deleteWebhook(ctx, caller.workspaceId, id, actorOf(caller));
  return noContent();
});
