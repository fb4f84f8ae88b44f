import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';

/** The only SQL of the metrics. */

/** Scheduled posts due now that no dispatcher holds (a leased post's next_attempt_at is its lease end). */
export async function countScheduledDue(ctx: AppContext): Promise<number> {
  const result = await ctx.db.execute(sql`
    SELECT count(*)::int AS due FROM posts
    WHERE status = 'scheduled' AND next_attempt_at <= ${new Date().toISOString()}::timestamptz`);
  return Number((result as unknown as { rows: { due: number }[] }).rows[0]?.due ?? 0);
}
