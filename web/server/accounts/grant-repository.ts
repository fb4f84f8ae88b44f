import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { accountGrants, accounts } from '#server/db/schema.ts';

/** The only SQL of shared grants: one login's credentials, stored once for all its accounts. */

export type GrantRow = typeof accountGrants.$inferSelect;

export async function findGrant(ctx: AppContext, grantId: string): Promise<GrantRow | undefined> {
  const [row] = await ctx.db.select().from(accountGrants).where(eq(accountGrants.id, grantId));
  return row;
}

export async function findGrantByKey(
  ctx: AppContext,
  input: { workspaceId: string; platform: string; grantKey: string },
): Promise<GrantRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(accountGrants)
    .where(
      and(
        eq(accountGrants.workspaceId, input.workspaceId),
        eq(accountGrants.platform, input.platform),
        eq(accountGrants.grantKey, input.grantKey),
      ),
    );
  return row;
}

export async function insertGrant(ctx: AppContext, values: GrantRow): Promise<void> {
  await ctx.db.insert(accountGrants).values(values);
}

export async function updateGrantCredentials(
  ctx: AppContext,
  grantId: string,
  credentials: string,
): Promise<void> {
  await ctx.db
    .update(accountGrants)
    .set({ credentials, updatedAt: new Date() })
    .where(eq(accountGrants.id, grantId));
}

/** The grant an account uses, if any. */
export async function grantIdOf(ctx: AppContext, accountId: string): Promise<string | null | undefined> {
  const [row] = await ctx.db
    .select({ grantId: accounts.grantId })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.grantId;
}

/** Every account using the grant, as `{ id, platform }`. */
export async function accountsOfGrant(
  ctx: AppContext,
  grantId: string,
): Promise<{ id: string; platform: string }[]> {
  return ctx.db
    .select({ id: accounts.id, platform: accounts.platform })
    .from(accounts)
    .where(eq(accounts.grantId, grantId));
}

/** Removes a grant no account uses any more (its last account was deleted or moved to another). */
export async function deleteGrantIfUnused(db: AppContext['db'], grantId: string): Promise<void> {
  await db
    .delete(accountGrants)
    .where(
      and(
        eq(accountGrants.id, grantId),
        sql`NOT EXISTS (SELECT 1 FROM ${accounts} WHERE ${accounts.grantId} = ${grantId})`,
      ),
    );
}
