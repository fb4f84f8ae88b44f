import { readJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { openReviewLink } from '#server/review/access.ts';
import { addReviewComment } from '#server/review/act.ts';
import { reviewRoutes } from '#server/review/routes.ts';
import { parseReviewBody, ReviewCommentRequest } from '#server/review/schema.ts';
import { clientAddress } from '#server/security/client-address.ts';

export const runtime = 'nodejs';

export const POST = route(reviewRoutes.addReviewComment, async ({ request, ctx, params }) => {
  const link = await openReviewLink(ctx, params.token, clientAddress(request, ctx.config.trustProxyHops));
  const input = parseReviewBody(ReviewCommentRequest, await readJson(request));
  return json(await addReviewComment(ctx, link, input), 201);
});
