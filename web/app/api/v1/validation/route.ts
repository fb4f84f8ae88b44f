import { normalizeValidationRequest, ValidationRequest } from '@postwave/shared';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { preparePost } from '#server/posts/prepare.ts';
import { postsRoutes } from '#server/posts/routes.ts';

export const runtime = 'nodejs';

export const POST = route(postsRoutes.validatePost, async ({ request, ctx, caller }) => {
  const body = await readBody(request, ValidationRequest);
  const prepared = await preparePost(ctx, caller.workspaceId, normalizeValidationRequest(body));
  return json(prepared.validation);
});
