import { ProblemError, problem } from '@postwave/shared';
import { queryOf } from '#server/http/query.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { mediaLibraryRoutes } from '#server/media/library-routes.ts';
import { listMedia } from '#server/media/list-media.ts';
import { ListMediaQuery, maxMediaPage } from '#server/media/schema.ts';

export const runtime = 'nodejs';

export const GET = route(mediaLibraryRoutes.listMedia, async ({ request, ctx, caller }) => {
  const query = ListMediaQuery.safeParse(queryOf(request));
  if (!query.success) {
    const field = query.error.issues[0]?.path.join('.') || 'query';
    throw new ProblemError(
      problem(
        'invalid_request',
        `${field}: limit 1 to ${maxMediaPage}; kind image, video or document; q at most 200 characters`,
      ),
    );
  }
  return json(await listMedia(ctx, caller.workspaceId, query.data));
});
