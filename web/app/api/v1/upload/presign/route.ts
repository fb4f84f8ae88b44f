import { PresignRequest } from '@postwave/shared';
import { warnOnForeignOrigin } from '#server/http/app-origin.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { mediaRoutes } from '#server/media/routes.ts';
import { presignUpload } from '#server/media/service.ts';

export const runtime = 'nodejs';

export const POST = route(mediaRoutes.presignUpload, async ({ request, ctx, caller }) => {
  warnOnForeignOrigin(ctx.config, ctx.logger, request);
  return json(await presignUpload(ctx, caller.workspaceId, await readBody(request, PresignRequest)), 201);
});
