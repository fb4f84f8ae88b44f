import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';

/*
 * The only SQL of the dispatcher's own: the earliest due time, and the PostgreSQL notification
 * that tells other instances a post became due earlier than they may think.
 */

/** The channel every instance LISTENs on; the payload is the due time in ms since the epoch. */
export const dueChannel = 'postwave_due';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** When the earliest scheduled post becomes due (the `posts_due` index answers it), or null. */
export async function earliestDueAt(ctx: AppContext): Promise<Date | null> {
  const result = await ctx.db.execute(sql`
    SELECT (extract(epoch FROM min(next_attempt_at)) * 1000)::float8 AS at
    FROM posts WHERE status = 'scheduled'`);
  const at = rowsOf<{ at: number | string | null }>(result)[0]?.at;
  return at === null || at === undefined ? null : new Date(Number(at));
}

/** Tells every instance listening on PostgreSQL that a post is due at `at`. */
export async function notifyDue(ctx: AppContext, at: Date): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_notify(${dueChannel}, ${String(at.getTime())})`);
}
