import { feedsRoutes } from '#server/feeds/routes.ts';
import { FeedRequest } from '#server/feeds/schema.ts';
import { createFeed, listFeeds } from '#server/feeds/service.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const GET = route(feedsRoutes.listFeeds, async ({ ctx, caller }) =>
  json({ feeds: await listFeeds(ctx, caller.workspaceId) }),
);

export const POST = route(feedsRoutes.createFeed, async ({ request, ctx, caller }) =>
  json(await createFeed(ctx, caller.workspaceId, await readBody(request, FeedRequest)), 201),
);
