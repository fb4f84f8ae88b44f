import { parsePostRequest } from '@postwave/shared';
import { approvalActorOf } from '#server/approvals/actor.ts';
import { decidePosting } from '#server/approvals/policy.ts';
import { submitNewPost } from '#server/approvals/submit-post.ts';
import { actorOf } from '#server/audit/actor.ts';
import { readJson } from '#server/http/body.ts';
import { parseQuery } from '#server/http/query.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { idempotent } from '#server/idempotency/idempotency.ts';
import { createPost } from '#server/posts/create-post.ts';
import { listPosts } from '#server/posts/list-posts.ts';
import { parseRecycle } from '#server/posts/recycle-schema.ts';
import { postsRoutes } from '#server/posts/routes.ts';
import { ListPostsQuery } from '#server/posts/schema.ts';
import { withTemplate } from '#server/templates/apply-template.ts';

export const runtime = 'nodejs';

export const GET = route(postsRoutes.listPosts, async ({ request, ctx, caller }) => {
  return json(await listPosts(ctx, caller.workspaceId, parseQuery(ListPostsQuery, request)));
});

export const POST = route(postsRoutes.createPost, async ({ request, ctx, caller }) => {
  const body = await readJson(request);
  return idempotent(ctx, caller, request, body, async () => {
    const recycle = parseRecycle(body) ?? null;
    // Inside the idempotent run: a key reused with another body is 422 before anything else.
    const input = parsePostRequest(await withTemplate(ctx, caller.workspaceId, body));
    const { postingMode } = input;
    if (postingMode !== 'draft' && (await decidePosting(ctx, caller)) === 'submit') {
      const post = await submitNewPost(
        ctx,
        caller.workspaceId,
        { ...input, postingMode },
        approvalActorOf(caller),
        'approvals',
        recycle,
      );
      return { status: 202, body: post };
    }
    return {
      status: 201,
      body: await createPost(ctx, caller.workspaceId, input, caller.userId, actorOf(caller), recycle),
    };
  });
});
