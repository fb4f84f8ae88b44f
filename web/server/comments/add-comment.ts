import type { Db } from '#server/db/access.ts';
import type { CommentAuthorType } from '#server/db/schema.ts';
import { toCommentView } from './list-comments.ts';
import { insertComment } from './repository.ts';
import { type CommentView, commentBody } from './schema.ts';

export interface NewComment {
  workspaceId: string;
  postId: string;
  /** A member (`userId`), or a reviewer through a review link under the name they typed. */
  author: { type: CommentAuthorType; userId?: string | undefined; name: string };
  body: string | undefined;
}

/**
 * Adds a comment with `tx` (a review decision can store its comment in its own transaction). The
 * caller has checked that the author may comment on this post; the body is checked here (422).
 */
export async function addComment(tx: Db, input: NewComment): Promise<CommentView> {
  const body = commentBody(input.body);
  const row = await insertComment(tx, {
    id: crypto.randomUUID(),
    workspaceId: input.workspaceId,
    postId: input.postId,
    authorType: input.author.type,
    authorUserId: input.author.userId ?? null,
    authorName: input.author.name.trim().slice(0, 200) || 'Someone',
    body,
    createdAt: new Date(),
  });
  return toCommentView(row);
}
