import { readBody } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { deleteMedia } from '#server/media/delete-media.ts';
import { mediaLibraryRoutes } from '#server/media/library-routes.ts';
import { MediaPatch } from '#server/media/schema.ts';
import { updateMedia } from '#server/media/update-media.ts';

export const runtime = 'nodejs';

export const PATCH = route(mediaLibraryRoutes.updateMedia, async ({ request, ctx, caller, params }) => {
  // Contract B: a field of the wrong type is 400, a well-typed value out of bounds 422.
  const patch = await readBody(request, MediaPatch);
  return json(await updateMedia(ctx, caller.workspaceId, params.id, patch));
});

export const DELETE = route(mediaLibraryRoutes.deleteMedia, async ({ ctx, caller, params }) => {
  await deleteMedia(ctx, caller.workspaceId, params.id);
  return noContent();
});
