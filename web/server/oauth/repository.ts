import { and, desc, eq, gt, isNull, max, min, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { liveSecret } from '#server/db/live-secret.ts';
import { oauthAuthorizationCodes, oauthClients, oauthTokens } from '#server/db/schema.ts';

/** The only SQL of the MCP OAuth server: clients, authorization codes and token pairs. Secrets arrive hashed. */

export type ClientRow = typeof oauthClients.$inferSelect;
export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
/** A database or a transaction: whatever can run this resource's statements. */
type Db = Pick<AppContext, 'db'>;

// Clients

export async function insertClient(ctx: Db, values: typeof oauthClients.$inferInsert): Promise<void> {
  await ctx.db.insert(oauthClients).values(values);
}

export async function findClientRow(ctx: Db, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await ctx.db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  return row;
}

/** Stores (or refreshes) a client known from its metadata document. */
export async function upsertDocumentClient(
  ctx: Db,
  clientId: string,
  values: { name: string | null; redirectUris: string[]; metadata: Record<string, unknown> },
): Promise<void> {
  await ctx.db
    .insert(oauthClients)
    .values({ id: clientId, tokenEndpointAuthMethod: 'none', createdAt: new Date(), ...values })
    .onConflictDoUpdate({ target: oauthClients.id, set: values });
}

// Authorization codes

export async function insertAuthorizationCode(
  ctx: Db,
  values: typeof oauthAuthorizationCodes.$inferInsert,
): Promise<void> {
  await ctx.db.insert(oauthAuthorizationCodes).values(values);
}

/** Marks a live code used and records the token family it starts, in the statement that finds it. */
export async function consumeAuthorizationCode(ctx: Db, codeHash: string, familyId: string, now: Date) {
  const [row] = await ctx.db
    .update(oauthAuthorizationCodes)
    .set({ usedAt: now, familyId })
    .where(
      liveSecret(
        oauthAuthorizationCodes.codeHash,
        oauthAuthorizationCodes.usedAt,
        oauthAuthorizationCodes.expiresAt,
        codeHash,
        now,
      ),
    )
    .returning();
  return row;
}

/** The token family a (used) code started, if any. */
export async function familyOfCode(ctx: Db, codeHash: string): Promise<string | null | undefined> {
  const [used] = await ctx.db
    .select({ familyId: oauthAuthorizationCodes.familyId })
    .from(oauthAuthorizationCodes)
    .where(eq(oauthAuthorizationCodes.codeHash, codeHash));
  return used?.familyId;
}

// Token pairs

export async function insertTokenPair(ctx: Db, values: typeof oauthTokens.$inferInsert): Promise<void> {
  await ctx.db.insert(oauthTokens).values(values);
}

/** Revokes the live pair with this refresh token (rotation); undefined when there is none. */
export async function revokeLiveRefreshToken(
  ctx: Db,
  refreshTokenHash: string,
  now: Date,
): Promise<OAuthTokenRow | undefined> {
  const [row] = await ctx.db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(
      liveSecret(
        oauthTokens.refreshTokenHash,
        oauthTokens.revokedAt,
        oauthTokens.refreshExpiresAt,
        refreshTokenHash,
        now,
      ),
    )
    .returning();
  return row;
}

export async function findTokenPairByHash(
  ctx: Db,
  kind: 'access' | 'refresh',
  hash: string,
): Promise<OAuthTokenRow | undefined> {
  const column = kind === 'refresh' ? oauthTokens.refreshTokenHash : oauthTokens.accessTokenHash;
  const [row] = await ctx.db.select().from(oauthTokens).where(eq(column, hash));
  return row;
}

export async function findLiveAccessToken(
  ctx: Db,
  accessTokenHash: string,
  now: Date,
): Promise<OAuthTokenRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(oauthTokens)
    .where(
      liveSecret(
        oauthTokens.accessTokenHash,
        oauthTokens.revokedAt,
        oauthTokens.accessExpiresAt,
        accessTokenHash,
        now,
      ),
    );
  return row;
}

async function revokeWhere(ctx: Db, condition: SQL | undefined, now = new Date()): Promise<void> {
  await ctx.db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(and(condition, isNull(oauthTokens.revokedAt)));
}

export async function revokeTokenPair(ctx: Db, tokenId: string): Promise<void> {
  await revokeWhere(ctx, eq(oauthTokens.id, tokenId));
}

export async function revokeFamilyById(ctx: Db, familyId: string): Promise<void> {
  await revokeWhere(ctx, eq(oauthTokens.familyId, familyId));
}

/** Revokes the row's family; a row issued before families existed falls back to its user and client. */
export async function revokeFamilyOf(ctx: Db, row: OAuthTokenRow): Promise<void> {
  await revokeWhere(
    ctx,
    row.familyId
      ? eq(oauthTokens.familyId, row.familyId)
      : and(eq(oauthTokens.userId, row.userId), eq(oauthTokens.clientId, row.clientId)),
  );
}

/** Ends every MCP grant of a user: their token pairs are revoked and pending codes deleted (password reset). */
export async function revokeOAuthGrantsOf(ctx: Db, userId: string, now = new Date()): Promise<void> {
  await revokeWhere(ctx, eq(oauthTokens.userId, userId), now);
  await ctx.db.delete(oauthAuthorizationCodes).where(eq(oauthAuthorizationCodes.userId, userId));
}

/** Records a use of an access token unless one was recorded after `notBefore`. */
export async function recordAccessTokenUse(
  ctx: Db,
  tokenId: string,
  now: Date,
  notBefore: Date,
): Promise<void> {
  await ctx.db
    .update(oauthTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(oauthTokens.id, tokenId),
        or(isNull(oauthTokens.lastUsedAt), sql`${oauthTokens.lastUsedAt} < ${notBefore}`),
      ),
    );
}

// Connections (a user's grants to one client)

/** Clients holding a live access or refresh token of the user. */
export async function liveClientIdsOf(ctx: Db, userId: string, now: Date): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ clientId: oauthTokens.clientId })
    .from(oauthTokens)
    .where(
      and(
        eq(oauthTokens.userId, userId),
        isNull(oauthTokens.revokedAt),
        or(gt(oauthTokens.accessExpiresAt, now), gt(oauthTokens.refreshExpiresAt, now)),
      ),
    );
  return rows.map((r) => r.clientId);
}

/** The client's name and redirect URIs, and when the user's tokens for it were first and last issued and used. */
export async function connectionStats(ctx: Db, userId: string, clientId: string) {
  const [stats] = await ctx.db
    .select({
      name: oauthClients.name,
      redirectUris: oauthClients.redirectUris,
      first: min(oauthTokens.createdAt),
      lastIssued: max(oauthTokens.createdAt),
      lastUsed: max(oauthTokens.lastUsedAt),
    })
    .from(oauthTokens)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthTokens.clientId))
    .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.clientId, clientId)))
    .groupBy(oauthClients.id, oauthClients.name, oauthClients.redirectUris);
  return stats;
}

/** The redirect URI of the user's latest authorization code for the client. */
export async function latestRedirectUri(
  ctx: Db,
  userId: string,
  clientId: string,
): Promise<string | undefined> {
  const [code] = await ctx.db
    .select({ redirectUri: oauthAuthorizationCodes.redirectUri })
    .from(oauthAuthorizationCodes)
    .where(and(eq(oauthAuthorizationCodes.userId, userId), eq(oauthAuthorizationCodes.clientId, clientId)))
    .orderBy(desc(oauthAuthorizationCodes.createdAt))
    .limit(1);
  return code?.redirectUri;
}

/** Deletes every token and pending code the client holds for the user; false when it held no token. */
export async function deleteConnection(ctx: Db, userId: string, clientId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(oauthTokens)
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.clientId, clientId)))
      .returning({ id: oauthTokens.id });
    await tx
      .delete(oauthAuthorizationCodes)
      .where(and(eq(oauthAuthorizationCodes.userId, userId), eq(oauthAuthorizationCodes.clientId, clientId)));
    return deleted.length > 0;
  });
}
