import type { Db } from '#server/db/access.ts';
import { type CommentRow, selectComments } from './repository.ts';
import type { CommentView } from './schema.ts';

/**
 * A post's comments, oldest first. The caller has already made sure the post is one it may see
 * (a member's workspace, or the post of a review link), so this only reads by post.
 */
export async function listComments(ctx: Db, postId: string): Promise<CommentView[]> {
  return (await selectComments(ctx, postId)).map(toCommentView);
}

export function toCommentView(row: CommentRow): CommentView {
  return {
    id: row.id,
    author: {
      type: row.authorType,
      ...(row.authorUserId ? { id: row.authorUserId } : {}),
      name: row.authorName,
    },
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  };
}
