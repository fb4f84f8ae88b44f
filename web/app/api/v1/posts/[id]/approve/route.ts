import { approvalActorOf } from '#server/approvals/actor.ts';
import { approvePost } from '#server/approvals/approve-post.ts';
import { approvalsRoutes } from '#server/approvals/routes.ts';
import { parseApprove } from '#server/approvals/schema.ts';
import { readOptionalJson } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';

export const POST = route(approvalsRoutes.approvePost, async ({ request, ctx, caller, params }) => {
  const input = parseApprove(await readOptionalJson(request));
  return json(await approvePost(ctx, caller.workspaceId, params.id, approvalActorOf(caller), input));
});
