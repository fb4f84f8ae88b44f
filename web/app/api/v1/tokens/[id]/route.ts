import { requireCaller } from '#server/auth/caller.ts';
import { isUuid } from '#server/http/ids.ts';
import { noContent, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { revokeToken } from '#server/tokens/service.ts';

export const runtime = 'nodejs';

export const DELETE = route<{ id: string }>(async (request, ctx, { id }) => {
  const caller = await requireCaller(request, ctx);
  if (!isUuid(id)) throw notFound('token');
  await revokeToken(ctx, caller.userId, id);
  return noContent();
});
