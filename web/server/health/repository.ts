import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';

/** The only SQL of the readiness checks. */

export async function pingDatabase(ctx: AppContext): Promise<void> {
  await ctx.db.execute(sql`SELECT 1`);
}

/** The journal time of the newest migration drizzle recorded as applied (0 when none). */
export async function newestAppliedMigration(ctx: AppContext): Promise<number> {
  const result = await ctx.db.execute(
    sql`SELECT coalesce(max(created_at), 0)::bigint AS applied FROM drizzle.__drizzle_migrations`,
  );
  return Number((result as unknown as { rows: { applied: string | number }[] }).rows[0]?.applied ?? 0);
}
