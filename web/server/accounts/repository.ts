import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { accounts } from '#server/db/schema.ts';

/** Which of these account ids belong to the user. */
export async function ownedAccountIds(ctx: AppContext, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), inArray(accounts.id, ids)));
  return new Set(rows.map((r) => r.id));
}
