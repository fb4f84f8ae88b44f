import { and, asc, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';

import { type Db, inTransaction, rowsOf } from '#server/db/access.ts';
import {
  apiTokens,
  oauthAuthorizationCodes,
  oauthTokens,
  type StoredWorkspaceSettings,
  users,
  type WorkspaceRole,
  workspaceMembers,
  workspaces,
} from '#server/db/schema.ts';

/** The only SQL for workspaces and their members (docs/workspaces.md); invitations: ./invitations-repository.ts. */

export type WorkspaceRow = typeof workspaces.$inferSelect;
export interface Membership {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
}

/** A workspace with `userId` as its owner, made the user's current one; in the caller's transaction. */
export async function insertWorkspace(
  ctx: Db,
  values: { id: string; name: string; settings: StoredWorkspaceSettings; userId: string; now: Date },
): Promise<WorkspaceRow> {
  const [row] = await ctx.db
    .insert(workspaces)
    .values({ id: values.id, name: values.name, settings: values.settings, createdAt: values.now })
    .returning();
  await ctx.db
    .insert(workspaceMembers)
    .values({ workspaceId: values.id, userId: values.userId, role: 'owner', createdAt: values.now });
  return row!;
}

export async function setCurrentWorkspace(ctx: Db, userId: string, workspaceId: string): Promise<void> {
  await ctx.db.update(users).set({ currentWorkspaceId: workspaceId }).where(eq(users.id, userId));
}

/** The user's role in the workspace, with the workspace; undefined when not a member. */
export async function findMembership(
  ctx: Db,
  userId: string,
  workspaceId: string,
): Promise<Membership | undefined> {
  const [row] = await ctx.db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, workspaceId)));
  return row;
}

/** The session's workspace: the user's current one while they are a member, else their oldest. */
export async function sessionMembership(ctx: Db, userId: string): Promise<Membership | undefined> {
  const [row] = await ctx.db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(
      desc(sql`${workspaceMembers.workspaceId} = ${users.currentWorkspaceId}`),
      asc(workspaceMembers.createdAt),
      asc(workspaceMembers.workspaceId),
    )
    .limit(1);
  return row;
}

/** The workspaces a user belongs to, oldest membership first. */
export async function membershipsOf(ctx: Db, userId: string): Promise<Membership[]> {
  return ctx.db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaces.id));
}

/** Locks the workspace row until the transaction ends; false when there is none. */
export async function lockWorkspace(ctx: Db, workspaceId: string): Promise<boolean> {
  const result = await ctx.db.execute(sql`SELECT 1 FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`);
  return rowsOf(result).length > 0;
}

/** Deletes the workspace; every resource it owns goes with it (foreign keys cascade). */
export async function deleteWorkspace(ctx: Db, workspaceId: string): Promise<boolean> {
  const rows = await ctx.db
    .delete(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .returning({ id: workspaces.id });
  return rows.length > 0;
}

export async function membersOf(ctx: Db, workspaceId: string) {
  return ctx.db
    .select({ userId: users.id, email: users.email, name: users.name, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.id));
}

/** Owners other than `userId` (a row lock keeps two demotions from leaving none). */
export async function otherOwnerCount(ctx: Db, workspaceId: string, userId: string): Promise<number> {
  await lockWorkspace(ctx, workspaceId);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.role, 'owner'),
        ne(workspaceMembers.userId, userId),
      ),
    );
  return row?.n ?? 0;
}

export async function setMemberRole(ctx: Db, workspaceId: string, userId: string, role: WorkspaceRole) {
  await ctx.db
    .update(workspaceMembers)
    .set({ role })
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
}

export async function insertMember(
  ctx: Db,
  workspaceId: string,
  userId: string,
  role: WorkspaceRole,
  now: Date,
): Promise<boolean> {
  const rows = await ctx.db
    .insert(workspaceMembers)
    .values({ workspaceId, userId, role, createdAt: now })
    .onConflictDoNothing()
    .returning({ userId: workspaceMembers.userId });
  return rows.length > 0;
}

/** A user's e-mail address and name (what the audit log shows of a member). */
export async function userIdentity(ctx: Db, userId: string) {
  const [row] = await ctx.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/**
 * Removes a member and, in the same transaction, ends their API and CLI tokens and MCP grants
 * for this workspace: removal takes effect at once (docs/workspaces.md#members).
 */
export async function deleteMember(ctx: Db, workspaceId: string, userId: string, now: Date): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await tx.db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    await tx.db
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(apiTokens.workspaceId, workspaceId),
          eq(apiTokens.userId, userId),
          isNull(apiTokens.revokedAt),
        ),
      );
    await tx.db
      .update(oauthTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(oauthTokens.workspaceId, workspaceId),
          eq(oauthTokens.userId, userId),
          isNull(oauthTokens.revokedAt),
        ),
      );
    await tx.db
      .delete(oauthAuthorizationCodes)
      .where(
        and(eq(oauthAuthorizationCodes.workspaceId, workspaceId), eq(oauthAuthorizationCodes.userId, userId)),
      );
  });
}

export async function findWorkspace(ctx: Db, workspaceId: string): Promise<WorkspaceRow | undefined> {
  const [row] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return row;
}

/** Merges `patch` into the stored settings in one statement (two edits of different keys both stay). */
export async function mergeWorkspace(
  ctx: Db,
  workspaceId: string,
  change: { name?: string | undefined; settings?: StoredWorkspaceSettings | undefined },
): Promise<WorkspaceRow | undefined> {
  const [row] = await ctx.db
    .update(workspaces)
    .set({
      ...(change.name !== undefined ? { name: change.name } : {}),
      settings: sql`${workspaces.settings} || ${JSON.stringify(change.settings ?? {})}::jsonb`,
    })
    .where(eq(workspaces.id, workspaceId))
    .returning();
  return row;
}

/** The e-mail addresses of the workspace's owners and admins (account health mail). */
export async function managerEmails(ctx: Db, workspaceId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(eq(workspaceMembers.workspaceId, workspaceId), inArray(workspaceMembers.role, ['owner', 'admin'])),
    )
    .orderBy(asc(workspaceMembers.createdAt));
  return rows.map((r) => r.email);
}
