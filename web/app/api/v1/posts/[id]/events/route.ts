import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import { postsRoutes } from '#server/posts/routes.ts';

export const runtime = 'nodejs';

export const GET = route(postsRoutes.listPostEvents, async ({ ctx, caller, params }) =>
  json(await listPostTimeline(ctx, caller.workspaceId, params.id)),
);
