import { feedsRoutes } from '#server/feeds/routes.ts';
import { pollOwnedFeed } from '#server/feeds/service.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const POST = route(feedsRoutes.pollFeed, async ({ ctx, caller, params }) =>
  json(await pollOwnedFeed(ctx, caller.workspaceId, params.id)),
);
