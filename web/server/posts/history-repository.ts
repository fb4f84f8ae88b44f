import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { postEvents } from '#server/db/schema.ts';

/** The only SQL of a post's history (history.ts). */

/** One entry of a post's history (who did what, e.g. an assistant publishing it). */
export async function insertPostEvent(ctx: AppContext, row: typeof postEvents.$inferInsert): Promise<void> {
  await ctx.db.insert(postEvents).values(row);
}

/** A post's history, oldest first, only the user's own. */
export function selectPostEvents(ctx: AppContext, workspaceId: string, postId: string) {
  return ctx.db
    .select()
    .from(postEvents)
    .where(and(eq(postEvents.postId, postId), eq(postEvents.workspaceId, workspaceId)))
    .orderBy(asc(postEvents.createdAt), asc(postEvents.id));
}
