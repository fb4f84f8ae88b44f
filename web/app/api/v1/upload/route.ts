import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { mediaRoutes } from '#server/media/routes.ts';
import { uploadFromRequest } from '#server/media/service.ts';

export const runtime = 'nodejs';

export const POST = route(mediaRoutes.uploadMedia, async ({ request, ctx, caller }) => {
  return json({ media: await uploadFromRequest(ctx, caller.workspaceId, request) }, 201);
});
