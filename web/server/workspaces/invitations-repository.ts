import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { workspaceInvitations, workspaces } from '#server/db/schema.ts';

/** The only SQL for a workspace's invitations (docs/workspaces.md). */

export type InvitationRow = typeof workspaceInvitations.$inferSelect;

/** Not accepted, not revoked, not expired at `now`. */
const open = (now: Date) =>
  and(
    isNull(workspaceInvitations.acceptedAt),
    isNull(workspaceInvitations.revokedAt),
    gt(workspaceInvitations.expiresAt, now),
  );

export async function insertInvitation(ctx: Db, values: typeof workspaceInvitations.$inferInsert) {
  const [row] = await ctx.db.insert(workspaceInvitations).values(values).returning();
  return row!;
}

/** Invitations still open (not accepted, revoked or expired), newest first. */
export async function openInvitationsOf(ctx: Db, workspaceId: string, now: Date): Promise<InvitationRow[]> {
  return ctx.db
    .select()
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), open(now)))
    .orderBy(desc(workspaceInvitations.createdAt), desc(workspaceInvitations.id));
}

/** The workspace's invitation, unless accepted or revoked already (an expired one still counts). */
const revocable = (workspaceId: string, id: string) =>
  and(
    eq(workspaceInvitations.id, id),
    eq(workspaceInvitations.workspaceId, workspaceId),
    isNull(workspaceInvitations.acceptedAt),
    isNull(workspaceInvitations.revokedAt),
  );

/** The role a revocable invitation offers; undefined when there is none. */
export async function revocableInvitationRole(ctx: Db, workspaceId: string, id: string) {
  const [row] = await ctx.db
    .select({ role: workspaceInvitations.role })
    .from(workspaceInvitations)
    .where(revocable(workspaceId, id));
  return row?.role;
}

export async function revokeInvitation(ctx: Db, workspaceId: string, id: string, now: Date) {
  const rows = await ctx.db
    .update(workspaceInvitations)
    .set({ revokedAt: now })
    .where(revocable(workspaceId, id))
    .returning({ id: workspaceInvitations.id });
  return rows.length > 0;
}

/** A live invitation by its token's hash (unknown, used, revoked or expired: undefined). */
export async function findLiveInvitation(ctx: Db, tokenHash: string, now: Date) {
  const [row] = await ctx.db
    .select({ invitation: workspaceInvitations, workspace: workspaces })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .where(and(eq(workspaceInvitations.tokenHash, tokenHash), open(now)));
  return row;
}

/** Marks the invitation used, once: false when another accept got there first. */
export async function markInvitationAccepted(ctx: Db, id: string, now: Date): Promise<boolean> {
  const rows = await ctx.db
    .update(workspaceInvitations)
    .set({ acceptedAt: now })
    .where(and(eq(workspaceInvitations.id, id), open(now)))
    .returning({ id: workspaceInvitations.id });
  return rows.length > 0;
}
