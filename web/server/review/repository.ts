import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { postComments, reviewLinks } from '#server/db/schema.ts';

/** The only SQL of review links and their comments (docs/workspaces.md#review-links). */

export type ReviewLinkRow = typeof reviewLinks.$inferSelect;
export type CommentRow = typeof postComments.$inferSelect;

export async function insertReviewLink(
  ctx: Db,
  values: typeof reviewLinks.$inferInsert,
): Promise<ReviewLinkRow> {
  const [row] = await ctx.db.insert(reviewLinks).values(values).returning();
  return row!;
}

/** A post's links, newest first (revoked and expired ones too: the list says which). */
export async function reviewLinksOf(ctx: Db, workspaceId: string, postId: string): Promise<ReviewLinkRow[]> {
  return ctx.db
    .select()
    .from(reviewLinks)
    .where(and(eq(reviewLinks.workspaceId, workspaceId), eq(reviewLinks.postId, postId)))
    .orderBy(desc(reviewLinks.createdAt), desc(reviewLinks.id));
}

export async function revokeReviewLink(
  ctx: Db,
  where: { workspaceId: string; postId: string; linkId: string },
  now: Date,
): Promise<boolean> {
  const rows = await ctx.db
    .update(reviewLinks)
    .set({ revokedAt: now })
    .where(
      and(
        eq(reviewLinks.id, where.linkId),
        eq(reviewLinks.workspaceId, where.workspaceId),
        eq(reviewLinks.postId, where.postId),
        isNull(reviewLinks.revokedAt),
      ),
    )
    .returning({ id: reviewLinks.id });
  return rows.length > 0;
}

/** The live link whose token hashes to `tokenHash` (unique index lookup), or undefined. */
export async function findLiveReviewLink(
  ctx: Db,
  tokenHash: string,
  now: Date,
): Promise<ReviewLinkRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(reviewLinks)
    .where(
      and(
        eq(reviewLinks.tokenHash, tokenHash),
        isNull(reviewLinks.revokedAt),
        gt(reviewLinks.expiresAt, now),
      ),
    );
  return row;
}

export async function insertComment(ctx: Db, values: typeof postComments.$inferInsert): Promise<CommentRow> {
  const [row] = await ctx.db.insert(postComments).values(values).returning();
  return row!;
}

/** A post's comments, oldest first (at most 500). */
export async function commentsOf(ctx: Db, workspaceId: string, postId: string): Promise<CommentRow[]> {
  return ctx.db
    .select()
    .from(postComments)
    .where(and(eq(postComments.workspaceId, workspaceId), eq(postComments.postId, postId)))
    .orderBy(asc(postComments.createdAt), asc(postComments.id))
    .limit(500);
}
