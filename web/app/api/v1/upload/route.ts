import { requireCaller } from '#server/auth/caller.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { uploadFromRequest } from '#server/media/service.ts';

export const runtime = 'nodejs';

export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  return json({ media: await uploadFromRequest(ctx, caller.userId, request) }, 201);
});
