import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { postComments } from '#server/db/schema.ts';

/** The only SQL of post comments. */

export type CommentRow = typeof postComments.$inferSelect;

export async function insertComment(ctx: Db, values: typeof postComments.$inferInsert): Promise<CommentRow> {
  const [row] = await ctx.db.insert(postComments).values(values).returning();
  return row!;
}

/** A post's comments, oldest first (the caller has checked the post is the workspace's). */
export async function selectComments(ctx: Db, postId: string): Promise<CommentRow[]> {
  return ctx.db
    .select()
    .from(postComments)
    .where(eq(postComments.postId, postId))
    .orderBy(asc(postComments.createdAt), asc(postComments.id));
}
