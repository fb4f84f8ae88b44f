import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { liveSecret } from '#server/db/live-secret.ts';
import { cliAuthorizationCodes } from '#server/db/schema.ts';

/** The only SQL of `postwave login`: single-use CLI authorization codes, stored hashed. */

/** A database or a transaction: whatever can run this resource's statements. */
type Db = Pick<AppContext, 'db'>;

export async function insertCliCode(
  ctx: Db,
  values: typeof cliAuthorizationCodes.$inferInsert,
): Promise<void> {
  await ctx.db.insert(cliAuthorizationCodes).values(values);
}

/** Marks a live code used in the same statement that finds it, so two exchanges cannot both win. */
export async function consumeCliCode(ctx: Db, codeHash: string, now: Date) {
  const [row] = await ctx.db
    .update(cliAuthorizationCodes)
    .set({ usedAt: now })
    .where(
      liveSecret(
        cliAuthorizationCodes.codeHash,
        cliAuthorizationCodes.usedAt,
        cliAuthorizationCodes.expiresAt,
        codeHash,
        now,
      ),
    )
    .returning();
  return row;
}

/** Drops every pending code of a user (password reset). */
export async function deleteCliCodesOf(ctx: Db, userId: string): Promise<void> {
  await ctx.db.delete(cliAuthorizationCodes).where(eq(cliAuthorizationCodes.userId, userId));
}
