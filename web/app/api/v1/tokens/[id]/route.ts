import { isUuid } from '#server/http/ids.ts';
import { noContent, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { tokensRoutes } from '#server/tokens/routes.ts';
import { revokeToken } from '#server/tokens/service.ts';

export const runtime = 'nodejs';

export const DELETE = route(tokensRoutes.revokeToken, async ({ ctx, caller, params: { id } }) => {
  if (!isUuid(id)) throw notFound('token');
  await revokeToken(ctx, caller.userId, caller.workspaceId, id);
  return noContent();
});
