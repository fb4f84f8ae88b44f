import { noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { revokeLink } from '#server/review/links.ts';
import { reviewRoutes } from '#server/review/routes.ts';

export const runtime = 'nodejs';

export const DELETE = route(reviewRoutes.revokeReviewLink, async ({ ctx, caller, params }) => {
  await revokeLink(ctx, caller.workspaceId, params.id, params.linkId);
  return noContent();
});
