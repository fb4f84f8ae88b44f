import { and, eq, gt } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { accounts, connectPending, connectStates } from '#server/db/schema.ts';

/** The only SQL of connecting by OAuth (consent states, picker choices) and of keeping connections alive. */

export type ConnectStateRow = typeof connectStates.$inferSelect;
export type ConnectPendingRow = typeof connectPending.$inferSelect;

export async function insertConnectState(ctx: AppContext, values: ConnectStateRow): Promise<void> {
  await ctx.db.insert(connectStates).values(values);
}

/** Deletes and returns the user's unexpired state for this platform: a state is used once. */
export async function takeConnectState(
  ctx: AppContext,
  input: { stateHash: string; workspaceId: string; platform: string },
): Promise<ConnectStateRow | undefined> {
  const [row] = await ctx.db
    .delete(connectStates)
    .where(
      and(
        eq(connectStates.stateHash, input.stateHash),
        eq(connectStates.workspaceId, input.workspaceId),
        eq(connectStates.platform, input.platform),
        gt(connectStates.expiresAt, new Date()),
      ),
    )
    .returning();
  return row;
}

export async function insertPendingConnection(ctx: AppContext, values: ConnectPendingRow): Promise<void> {
  await ctx.db.insert(connectPending).values(values);
}

export async function findPendingConnection(
  ctx: AppContext,
  input: { tokenHash: string; workspaceId: string },
): Promise<ConnectPendingRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(connectPending)
    .where(
      and(
        eq(connectPending.tokenHash, input.tokenHash),
        eq(connectPending.workspaceId, input.workspaceId),
        gt(connectPending.expiresAt, new Date()),
      ),
    );
  return row;
}

/** True when this call removed it: of two submissions of one picker, only one saves. */
export async function deletePendingConnection(
  ctx: AppContext,
  input: { tokenHash: string; workspaceId: string },
): Promise<boolean> {
  const deleted = await ctx.db
    .delete(connectPending)
    .where(
      and(eq(connectPending.tokenHash, input.tokenHash), eq(connectPending.workspaceId, input.workspaceId)),
    )
    .returning({ tokenHash: connectPending.tokenHash });
  return deleted.length > 0;
}

/** Every account still working, of every user: the connections the keeper renews. */
export async function activeAccountRows(ctx: AppContext): Promise<(typeof accounts.$inferSelect)[]> {
  return ctx.db.select().from(accounts).where(eq(accounts.status, 'active'));
}

/** Platform account ids this user already connected on a platform. */
export async function connectedPlatformAccountIds(
  ctx: AppContext,
  workspaceId: string,
  platform: string,
): Promise<Set<string>> {
  const rows = await ctx.db
    .select({ platformAccountId: accounts.platformAccountId })
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), eq(accounts.platform, platform)));
  return new Set(rows.map((r) => r.platformAccountId));
}
