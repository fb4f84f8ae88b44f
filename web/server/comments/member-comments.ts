import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { assertMayEditPost } from '#server/posts/authorize.ts';
import { ownedPost } from '#server/posts/guards.ts';
import { addComment } from './add-comment.ts';
import { listComments } from './list-comments.ts';
import type { CommentView } from './schema.ts';

/** `GET /api/v1/posts/{id}/comments`: every member reads them; another workspace's post is 404. */
export async function listPostComments(
  ctx: AppContext,
  caller: Caller,
  postId: string,
): Promise<CommentView[]> {
  await ownedPost(ctx, caller.workspaceId, postId);
  return listComments(ctx, postId);
}

/**
 * `POST /api/v1/posts/{id}/comments`: the role table's "create and edit drafts, comment" row —
 * owners, admins and editors on any post, contributors on their own (403 `editor` otherwise),
 * viewers never (the route's permission). Another workspace's post is 404.
 */
export async function commentOnPost(
  ctx: AppContext,
  caller: Caller,
  postId: string,
  body: string | undefined,
): Promise<CommentView> {
  const post = await ownedPost(ctx, caller.workspaceId, postId);
  await assertMayEditPost(ctx, caller, post.id);
  return addComment(ctx, {
    workspaceId: caller.workspaceId,
    postId: post.id,
    author: { type: 'member', userId: caller.userId, name: caller.actor.name },
    body,
  });
}
