import { parseValidationRequest } from '@postwave/shared';
import { readJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { preparePost } from '#server/posts/prepare.ts';
import { postsRoutes } from '#server/posts/routes.ts';

export const runtime = 'nodejs';

export const POST = route(postsRoutes.validatePost, async ({ request, ctx, caller }) => {
  const parsed = parseValidationRequest(await readJson(request));
  if (parsed.invalid) return json(parsed.invalid);
  const prepared = await preparePost(ctx, caller.workspaceId, parsed.post);
  return json(prepared.validation);
});
