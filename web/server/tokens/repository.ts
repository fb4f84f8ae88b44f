import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { apiTokens, users } from '#server/db/schema.ts';

/** The only SQL for API and CLI tokens. Secrets arrive here already hashed. */

export type TokenRow = typeof apiTokens.$inferSelect;
export type NewToken = typeof apiTokens.$inferInsert;
/** A database or a transaction: whatever can run this resource's statements. */
type Db = Pick<AppContext, 'db'>;

/** The user's live tokens bound to one workspace. */
export async function liveTokensOf(ctx: Db, userId: string, workspaceId: string): Promise<TokenRow[]> {
  return ctx.db
    .select()
    .from(apiTokens)
    .where(
      and(eq(apiTokens.userId, userId), eq(apiTokens.workspaceId, workspaceId), isNull(apiTokens.revokedAt)),
    )
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function insertToken(ctx: Db, values: NewToken): Promise<TokenRow> {
  const [row] = await ctx.db.insert(apiTokens).values(values).returning();
  return row!;
}

/** Revokes one live token of the user bound to the workspace; the revoked token, or undefined. */
export async function revokeToken(
  ctx: Db,
  userId: string,
  workspaceId: string,
  tokenId: string,
  now = new Date(),
) {
  const [row] = await ctx.db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        eq(apiTokens.userId, userId),
        eq(apiTokens.workspaceId, workspaceId),
        isNull(apiTokens.revokedAt),
      ),
    )
    .returning({
      id: apiTokens.id,
      workspaceId: apiTokens.workspaceId,
      name: apiTokens.name,
      kind: apiTokens.kind,
    });
  return row;
}

/** The name a member goes by (their e-mail address when they gave none). */
export async function memberName(ctx: Db, userId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ name: sql<string>`coalesce(${users.name}, ${users.email})` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.name ?? 'A member';
}

/** The unrevoked token with this hash, its workspace and its member's name. */
export async function findLiveTokenByHash(ctx: Db, tokenHash: string) {
  const [row] = await ctx.db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      workspaceId: apiTokens.workspaceId,
      userName: sql<string>`coalesce(${users.name}, ${users.email})`,
      kind: apiTokens.kind,
      lastUsedAt: apiTokens.lastUsedAt,
      expiresAt: apiTokens.expiresAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)));
  return row;
}

/** Records a use (and, for CLI tokens, the pushed expiry) unless the token ended or a later use won. */
export async function recordTokenUse(
  ctx: Db,
  tokenId: string,
  now: Date,
  expiresAt: Date | undefined,
): Promise<void> {
  await ctx.db
    .update(apiTokens)
    .set({ lastUsedAt: now, ...(expiresAt ? { expiresAt } : {}) })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        isNull(apiTokens.revokedAt),
        gt(apiTokens.expiresAt, now),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, now)),
      ),
    );
}

/** Ends every API and CLI token of a user. */
export async function revokeAllTokensOf(ctx: Db, userId: string, now = new Date()): Promise<void> {
  await ctx.db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
}

export async function findTokenOf(ctx: Db, userId: string, tokenId: string) {
  const [row] = await ctx.db
    .select({ id: apiTokens.id, kind: apiTokens.kind, name: apiTokens.name, expiresAt: apiTokens.expiresAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)));
  return row;
}

/** A token's name by id alone (to name the API token an MCP caller used). */
export async function tokenName(ctx: Db, tokenId: string): Promise<string | undefined> {
  const [row] = await ctx.db
    .select({ name: apiTokens.name })
    .from(apiTokens)
    .where(eq(apiTokens.id, tokenId));
  return row?.name;
}
