import { and, desc, eq, gt, isNull, max, min, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { oauthAuthorizationCodes, oauthClients, oauthTokens } from '#server/db/schema.ts';
import type { McpConnection } from './schema.ts';

function hostOf(uri: string | undefined): string | null {
  if (!uri) return null;
  try {
    const url = new URL(uri);
    return url.host || url.protocol.replace(/:$/, '');
  } catch {
    return null;
  }
}

/** The user's MCP clients that can still act for them (a live access or refresh token), newest use first. */
export async function listMcpConnections(ctx: AppContext, userId: string): Promise<McpConnection[]> {
  const now = new Date();
  const live = await ctx.db
    .selectDistinct({ clientId: oauthTokens.clientId })
    .from(oauthTokens)
    .where(
      and(
        eq(oauthTokens.userId, userId),
        isNull(oauthTokens.revokedAt),
        or(gt(oauthTokens.accessExpiresAt, now), gt(oauthTokens.refreshExpiresAt, now)),
      ),
    );
  if (live.length === 0) return [];
  const connections: McpConnection[] = [];
  for (const { clientId } of live) {
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
    if (!stats?.first || !stats.lastIssued) continue;
    const [code] = await ctx.db
      .select({ redirectUri: oauthAuthorizationCodes.redirectUri })
      .from(oauthAuthorizationCodes)
      .where(and(eq(oauthAuthorizationCodes.userId, userId), eq(oauthAuthorizationCodes.clientId, clientId)))
      .orderBy(desc(oauthAuthorizationCodes.createdAt))
      .limit(1);
    const lastUsed = stats.lastUsed && stats.lastUsed > stats.lastIssued ? stats.lastUsed : stats.lastIssued;
    connections.push({
      clientId,
      name: stats.name,
      redirectHost: hostOf(code?.redirectUri ?? stats.redirectUris[0]),
      connectedAt: new Date(stats.first).toISOString(),
      lastUsedAt: new Date(lastUsed).toISOString(),
    });
  }
  return connections.sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt));
}

/**
 * Disconnects an MCP client from the user: every token it holds for them (live, rotated or
 * revoked) and its pending authorization codes are deleted, so nothing it kept works any more.
 * Other users' grants to the same client are untouched. False when it held nothing for the user.
 */
export async function revokeMcpConnection(
  ctx: AppContext,
  userId: string,
  clientId: string,
): Promise<boolean> {
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

/** Minimum time between two recorded uses of the same access token, to keep the write rate low. */
const useResolutionMs = 5 * 60 * 1000;

/** Records that an access token authenticated a request (at most every few minutes per token). */
export async function noteAccessTokenUse(ctx: AppContext, tokenId: string): Promise<void> {
  const now = new Date();
  await ctx.db
    .update(oauthTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(oauthTokens.id, tokenId),
        or(
          isNull(oauthTokens.lastUsedAt),
          sql`${oauthTokens.lastUsedAt} < ${new Date(now.getTime() - useResolutionMs)}`,
        ),
      ),
    );
}
