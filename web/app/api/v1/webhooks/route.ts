import { actorOf } from '#server/audit/actor.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { webhooksRoutes } from '#server/webhooks/routes.ts';
import { CreateWebhookRequest } from '#server/webhooks/schema.ts';
import { createWebhook, listWebhooks } from '#server/webhooks/service.ts';

export const runtime = 'nodejs';

export const GET = route(webhooksRoutes.listWebhooks, async ({ ctx, caller }) => {
  return json({ webhooks: await listWebhooks(ctx, caller.workspaceId) });
});

export const POST = route(webhooksRoutes.createWebhook, async ({ request, ctx, caller }) => {
  const input = await readBody(request, CreateWebhookRequest);
  return json(await createWebhook(ctx, caller.workspaceId, input, actorOf(caller)), 201);
});
