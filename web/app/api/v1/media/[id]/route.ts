import { readJson } from '#server/http/body.ts';
import { validationFailed } from '#server/http/problems.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { deleteMedia } from '#server/media/delete-media.ts';
import { mediaLibraryRoutes } from '#server/media/library-routes.ts';
import { MediaPatch } from '#server/media/schema.ts';
import { updateMedia } from '#server/media/update-media.ts';

export const runtime = 'nodejs';

export const PATCH = route(mediaLibraryRoutes.updateMedia, async ({ request, ctx, caller, params }) => {
  const parsed = MediaPatch.safeParse(await readJson(request));
  if (!parsed.success) {
    throw validationFailed(
      'Some fields are not valid',
      parsed.error.issues.map((issue) => ({
        path: issue.path.join('.') || 'body',
        code: 'invalid_field',
        message: issue.message,
      })),
    );
  }
  return json(await updateMedia(ctx, caller.workspaceId, params.id, parsed.data));
});

export const DELETE = route(mediaLibraryRoutes.deleteMedia, async ({ ctx, caller, params }) => {
  await deleteMedia(ctx, caller.workspaceId, params.id);
  return noContent();
});
