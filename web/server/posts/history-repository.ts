import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { postEvents } from '#server/db/schema.ts';

/** The only SQL of a post's history (history.ts). */

/** One entry of a post's history (who did what, e.g. an assistant publishing it). */
export async function insertPostEvent(ctx: AppContext, row: typeof postEvents.$inferInsert): Promise<void> {
  await ctx.db.insert(postEvents).values(row);
}

/** A post's history, oldest first, only the user's own. */
export function selectPostEvents(ctx: AppContext, userId: string, postId: string) {
  return ctx.db
    .select()
    .from(postEvents)
    .where(and(eq(postEvents.postId, postId), eq(postEvents.userId, userId)))
    .orderBy(
      asc(postEvents.createdAt),
      // At one instant the post's outcome follows its targets' attempts (one statement writes both).
      asc(sql`${postEvents.action} in ('posted', 'failed')`),
      asc(postEvents.seq),
    );
}
