import { PresignRequest } from '@postwave/shared';
import { requireCaller } from '#server/auth/caller.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { presignUpload } from '#server/media/service.ts';

export const runtime = 'nodejs';

export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  return json(await presignUpload(ctx, caller.userId, await readBody(request, PresignRequest)), 201);
});
