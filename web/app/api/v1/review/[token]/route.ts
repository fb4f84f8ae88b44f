import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { openReviewLink } from '#server/review/access.ts';
import { reviewRoutes } from '#server/review/routes.ts';
import { reviewPage } from '#server/review/view.ts';
import { clientAddress } from '#server/security/client-address.ts';

export const runtime = 'nodejs';

export const GET = route(reviewRoutes.getReview, async ({ request, ctx, params }) => {
  const link = await openReviewLink(ctx, params.token, clientAddress(request, ctx.config.trustProxyHops));
  return json(await reviewPage(ctx, link));
});
