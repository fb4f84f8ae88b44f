import { approvalActorOf } from '#server/approvals/actor.ts';
import { rejectPost } from '#server/approvals/reject-post.ts';
import { approvalsRoutes } from '#server/approvals/routes.ts';
import { requiredComment } from '#server/approvals/schema.ts';
import { readOptionalJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const POST = route(approvalsRoutes.rejectPost, async ({ request, ctx, caller, params }) => {
  const comment = requiredComment(await readOptionalJson(request));
  return json(await rejectPost(ctx, caller.workspaceId, params.id, approvalActorOf(caller), comment));
});
