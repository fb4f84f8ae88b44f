import { parseBody } from '@postwave/shared';
import { approvalActorOf } from '#server/approvals/actor.ts';
import { editPost } from '#server/approvals/edit-post.ts';
import { decidePosting } from '#server/approvals/policy.ts';
import { submitStoredPost } from '#server/approvals/submit-post.ts';
import { actorOf } from '#server/audit/actor.ts';
import { readJson } from '#server/http/body.ts';
import { json, noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { idempotent } from '#server/idempotency/idempotency.ts';
import { actOnPost } from '#server/posts/act-on-post.ts';
import { assertMayEditPost, assertMayPost } from '#server/posts/authorize.ts';
import { deletePost } from '#server/posts/delete-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { ownedPost } from '#server/posts/guards.ts';
import { parseRecycle, withoutRecycle } from '#server/posts/recycle-schema.ts';
import { postsRoutes } from '#server/posts/routes.ts';
import { PostActionRequest, PostPatchRequest, toPostAction, toPostPatch } from '#server/posts/schema.ts';

export const runtime = 'nodejs';

export const GET = route(postsRoutes.getPost, async ({ ctx, caller, params }) =>
  json(await getPost(ctx, caller.workspaceId, params.id)),
);

export const PATCH = route(postsRoutes.updatePost, async ({ request, ctx, caller, params }) => {
  const body = await readJson(request);
  const recycle = parseRecycle(body);
  const parsed = parseBody(PostPatchRequest, withoutRecycle(body));
  const patch = toPostPatch(parsed, recycle);
  await assertMayEditPost(ctx, caller, params.id);
  const actors = { audit: actorOf(caller), approval: approvalActorOf(caller) };
  return json(await editPost(ctx, caller, params.id, patch, actors));
});

export const POST = route(postsRoutes.actOnPost, async ({ request, ctx, caller, params }) => {
  const body = await readJson(request);
  return idempotent(ctx, caller, request, body, async () => {
    const parsed = parseBody(PostActionRequest, body);
    const action = toPostAction(parsed);
    // Resolving unknown targets publishes again (or records a publication): a publisher's act.
    if ('resolveUnknown' in action) assertMayPost(caller, 'now');
    const submit =
      'postingMode' in action &&
      action.postingMode !== 'draft' &&
      (await decidePosting(ctx, caller)) === 'submit';
    await assertMayEditPost(ctx, caller, params.id);
    if (submit && 'postingMode' in action && action.postingMode !== 'draft') {
      const row = await ownedPost(ctx, caller.workspaceId, params.id);
      const requested = { postingMode: action.postingMode, scheduledAt: action.scheduledAt };
      return { status: 202, body: await submitStoredPost(ctx, row, requested, approvalActorOf(caller)) };
    }
    return {
      status: 200,
      body: await actOnPost(ctx, caller.workspaceId, params.id, action, actorOf(caller)),
    };
  });
});

export const DELETE = route(postsRoutes.deletePost, async ({ ctx, caller, params }) => {
  await deletePost(ctx, caller.workspaceId, params.id, actorOf(caller));
  return noContent();
});
