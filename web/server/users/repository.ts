import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { deleteCliCodesOf } from '#server/cli-auth/repository.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { liveSecret } from '#server/db/live-secret.ts';
import { emailVerificationTokens, passwordResetTokens, userIdentities, users } from '#server/db/schema.ts';
import { revokeOAuthGrantsOf } from '#server/oauth/repository.ts';
import { revokeAllTokensOf } from '#server/tokens/repository.ts';
import { createPersonalWorkspace } from '#server/workspaces/personal.ts';

/** The only SQL for users, their linked identities, verification and reset links. Secrets arrive hashed. */

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type NewIdentity = typeof userIdentities.$inferInsert;

/** A new user with their personal workspace (docs/workspaces.md), together or not at all. */
export async function insertUser(ctx: AppContext, values: NewUser): Promise<UserRow> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.insert(users).values(values).returning();
    const workspace = await createPersonalWorkspace(tx, row!);
    return { ...row!, currentWorkspaceId: workspace.id };
  });
}

/** Whether anyone has an account yet: the sign-in page greets a first visit differently. */
export async function anyUserExists(ctx: AppContext): Promise<boolean> {
  const rows = await ctx.db.select({ id: users.id }).from(users).limit(1);
  return rows.length > 0;
}

export async function findUser(ctx: AppContext, userId: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  return row;
}

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.email, email));
  return row;
}

export async function updateProfile(
  ctx: AppContext,
  userId: string,
  values: { name?: string | null; timezone?: string },
): Promise<void> {
  await ctx.db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** The user an identity is linked to. */
export async function findLinkedUser(
  ctx: AppContext,
  provider: string,
  providerAccountId: string,
): Promise<UserRow | undefined> {
  const [linked] = await ctx.db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(
      and(eq(userIdentities.provider, provider), eq(userIdentities.providerAccountId, providerAccountId)),
    );
  return linked?.user;
}

export async function insertIdentity(ctx: AppContext, values: NewIdentity): Promise<void> {
  await ctx.db.insert(userIdentities).values(values);
}

/** A new user and their first identity, together or not at all. */
export async function insertUserWithIdentity(
  ctx: AppContext,
  user: NewUser,
  identity: Omit<NewIdentity, 'userId'>,
): Promise<UserRow> {
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.insert(users).values(user).returning();
    await tx.db.insert(userIdentities).values({ ...identity, userId: row!.id });
    const workspace = await createPersonalWorkspace(tx, row!);
    return { ...row!, currentWorkspaceId: workspace.id };
  });
}

export async function identitiesOf(ctx: AppContext, userId: string) {
  return ctx.db
    .select({ provider: userIdentities.provider, createdAt: userIdentities.createdAt })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(userIdentities.createdAt);
}

/**
 * Unlinks a provider unless it is the user's last way to sign in. The user row is locked, so two
 * concurrent unlinks cannot both leave no way in.
 */
export async function deleteIdentityUnlessLast(
  ctx: AppContext,
  userId: string,
  provider: string,
): Promise<'deleted' | 'not_linked' | 'last'> {
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    const linked = await tx
      .select({ provider: userIdentities.provider })
      .from(userIdentities)
      .where(eq(userIdentities.userId, userId));
    if (!user || !linked.some((i) => i.provider === provider)) return 'not_linked';
    const remaining = linked.filter((i) => i.provider !== provider).length + (user.passwordHash ? 1 : 0);
    if (remaining === 0) return 'last';
    await tx
      .delete(userIdentities)
      .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)));
    return 'deleted';
  });
}

/** The two tables of single-use links e-mailed to a user; they share their columns. */
const linkTables = { verification: emailVerificationTokens, reset: passwordResetTokens };
export type LinkKind = keyof typeof linkTables;

/** The link with this hash that still works. */
function liveLink(table: (typeof linkTables)[LinkKind], tokenHash: string, now: Date) {
  return liveSecret(table.tokenHash, table.usedAt, table.expiresAt, tokenHash, now);
}

/** How many links of this kind the user was sent since then (rate limits). */
export async function countLinksSince(
  ctx: AppContext,
  kind: LinkKind,
  userId: string,
  since: Date,
): Promise<number> {
  const table: (typeof linkTables)[LinkKind] = linkTables[kind];
  const [recent] = await ctx.db
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.userId, userId), gt(table.createdAt, since)));
  return recent?.n ?? 0;
}

export async function insertVerificationLink(
  ctx: AppContext,
  values: typeof emailVerificationTokens.$inferInsert,
): Promise<void> {
  await ctx.db.insert(emailVerificationTokens).values(values);
}

/** Uses a live verification link; true when the account still has the address it was sent to. */
export async function consumeVerificationLink(
  ctx: AppContext,
  tokenHash: string,
  now: Date,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailVerificationTokens)
      .set({ usedAt: now })
      .where(liveLink(emailVerificationTokens, tokenHash, now))
      .returning({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email });
    if (!row) return false;
    const updated = await tx
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, row.userId), eq(users.email, row.email)))
      .returning({ id: users.id });
    return updated.length > 0;
  });
}

export async function insertResetLink(
  ctx: AppContext,
  values: typeof passwordResetTokens.$inferInsert,
): Promise<void> {
  await ctx.db.insert(passwordResetTokens).values(values);
}

export async function resetLinkIsLive(ctx: AppContext, tokenHash: string, now: Date): Promise<boolean> {
  const [row] = await ctx.db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(liveLink(passwordResetTokens, tokenHash, now));
  return row !== undefined;
}

/**
 * In one transaction: uses up the live reset link and every other outstanding one of the
 * account, sets the password, ends sessions begun before now, marks the address verified, and
 * revokes every API/CLI token, MCP grant and pending authorization code. False when the link is
 * not live (nothing changed).
 */
export async function resetPasswordWithLink(
  ctx: AppContext,
  tokenHash: string,
  passwordHash: string,
  now: Date,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(liveLink(passwordResetTokens, tokenHash, now))
      .returning({ userId: passwordResetTokens.userId });
    if (!row) return false;
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, row.userId), isNull(passwordResetTokens.usedAt)));
    const [user] = await tx
      .update(users)
      .set({ passwordHash, sessionsValidAfter: now, updatedAt: now })
      .where(eq(users.id, row.userId))
      .returning({ verifiedAt: users.emailVerifiedAt });
    if (!user?.verifiedAt)
      await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, row.userId));
    const inTx = { db: tx as unknown as AppContext['db'] };
    await revokeAllTokensOf(inTx, row.userId, now);
    await revokeOAuthGrantsOf(inTx, row.userId, now);
    await deleteCliCodesOf(inTx, row.userId);
    return true;
  });
}
