import { feedsRoutes } from '#server/feeds/routes.ts';
import { FeedPatch } from '#server/feeds/schema.ts';
import { deleteFeed, getFeed, updateFeed } from '#server/feeds/service.ts';
import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(feedsRoutes.getFeed, async ({ ctx, caller, params }) =>
  json(await getFeed(ctx, caller.workspaceId, params.id)),
);

export const PATCH = route(feedsRoutes.updateFeed, async ({ request, ctx, caller, params }) =>
  json(await updateFeed(ctx, caller.workspaceId, params.id, await readBody(request, FeedPatch))),
);

export const DELETE = route(feedsRoutes.deleteFeed, async ({ ctx, caller, params }) => {
  await deleteFeed(ctx, caller.workspaceId, params.id);
  return noContent();
});
