import { readOptionalJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { createReviewLink, listReviewLinks } from '#server/review/links.ts';
import { reviewRoutes } from '#server/review/routes.ts';
import { CreateReviewLinkRequest, parseReviewBody } from '#server/review/schema.ts';

export const runtime = 'nodejs';

export const POST = route(reviewRoutes.createReviewLink, async ({ request, ctx, caller, params }) => {
  const input = parseReviewBody(CreateReviewLinkRequest, await readOptionalJson(request));
  return json(await createReviewLink(ctx, caller, params.id, input), 201);
});

export const GET = route(reviewRoutes.listReviewLinks, async ({ ctx, caller, params }) =>
  json(await listReviewLinks(ctx, caller.workspaceId, params.id)),
);
