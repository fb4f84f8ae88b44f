import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { accounts, posts, postTargets } from '#server/db/schema.ts';
import { deleteGrantIfUnused } from './grant-repository.ts';

/** The only SQL for connected accounts. Credentials arrive here already encrypted. */

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;

export async function accountsOf(ctx: AppContext, workspaceId: string): Promise<AccountRow[]> {
  return ctx.db
    .select()
    .from(accounts)
    .where(eq(accounts.workspaceId, workspaceId))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
}

export async function findAccount(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
): Promise<AccountRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.workspaceId, workspaceId)));
  return row;
}

/** An account by id alone, for background work that acts on behalf of its owner. */
export async function findAccountById(ctx: AppContext, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await ctx.db.select().from(accounts).where(eq(accounts.id, accountId));
  return row;
}

/** Which of these account ids belong to the user. */
export async function ownedAccountIds(
  ctx: AppContext,
  workspaceId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), inArray(accounts.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** The id of the user's account for this platform account, if connected. */
export async function findConnectedId(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
  platformAccountId: string,
): Promise<string | undefined> {
  const [row] = await ctx.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.workspaceId, workspaceId),
        eq(accounts.platform, platform),
        eq(accounts.platformAccountId, platformAccountId),
      ),
    );
  return row?.id;
}

export async function insertAccount(ctx: AppContext, values: NewAccount): Promise<AccountRow> {
  const [row] = await ctx.db.insert(accounts).values(values).returning();
  return row!;
}

/** Updates one account; with `workspaceId`, only if it is that user's. */
export async function updateAccount(
  ctx: AppContext,
  accountId: string,
  set: Partial<NewAccount>,
  workspaceId?: string,
): Promise<AccountRow | undefined> {
  const [row] = await ctx.db
    .update(accounts)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(accounts.id, accountId), workspaceId ? eq(accounts.workspaceId, workspaceId) : undefined))
    .returning();
  return row;
}

/**
 * Deletes an account in one transaction: posts not yet posted lose it as a target (its unposted
 * results go too); one left without targets becomes a draft; a grant it was the last user of goes.
 * False when it is not the user's.
 */
export async function deleteAccount(
  ctx: AppContext,
  workspaceId: string,
  accountId: string,
  /** Runs in the same transaction once the account is gone (e.g. records a webhook event). */
  onDeleted?: (tx: AppContext['db'], deleted: AccountRow) => Promise<void>,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.workspaceId, workspaceId)))
      .returning();
    if (!deleted) return false;
    // The last account of a login takes its shared grant with it.
    if (deleted.grantId) await deleteGrantIfUnused(tx as unknown as AppContext['db'], deleted.grantId);
    await onDeleted?.(tx as unknown as AppContext['db'], deleted);
    const affected = await tx
      .select({ id: posts.id, accountIds: posts.accountIds, status: posts.status })
      .from(posts)
      .where(
        and(
          eq(posts.workspaceId, workspaceId),
          inArray(posts.status, ['draft', 'scheduled', 'failed']),
          sql`${posts.accountIds} @> ${JSON.stringify([accountId])}::jsonb`,
        ),
      );
    if (affected.length === 0) return true;
    await tx.delete(postTargets).where(
      and(
        inArray(
          postTargets.postId,
          affected.map((p) => p.id),
        ),
        eq(postTargets.accountId, accountId),
        sql`${postTargets.status} <> 'posted'`,
      ),
    );
    const now = new Date();
    for (const post of affected) {
      const remaining = post.accountIds.filter((id) => id !== accountId);
      await tx
        .update(posts)
        .set({
          accountIds: remaining,
          updatedAt: now,
          ...(remaining.length === 0 ? { status: 'draft' as const, nextAttemptAt: null } : {}),
        })
        .where(eq(posts.id, post.id));
    }
    return true;
  });
}
