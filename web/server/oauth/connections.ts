import type { AppContext } from '#server/context.ts';
import * as repo from './repository.ts';
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
  const live = await repo.liveClientIdsOf(ctx, userId, now);
  if (live.length === 0) return [];
  const connections: McpConnection[] = [];
  for (const clientId of live) {
    const stats = await repo.connectionStats(ctx, userId, clientId);
    if (!stats?.first || !stats.lastIssued) continue;
    const redirectUri = await repo.latestRedirectUri(ctx, userId, clientId);
    const lastUsed = stats.lastUsed && stats.lastUsed > stats.lastIssued ? stats.lastUsed : stats.lastIssued;
    connections.push({
      clientId,
      name: stats.name,
      redirectHost: hostOf(redirectUri ?? stats.redirectUris[0]),
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
  return repo.deleteConnection(ctx, userId, clientId);
}

/** Minimum time between two recorded uses of the same access token, to keep the write rate low. */
const useResolutionMs = 5 * 60 * 1000;

/** Records that an access token authenticated a request (at most every few minutes per token). */
export async function noteAccessTokenUse(ctx: AppContext, tokenId: string): Promise<void> {
  const now = new Date();
  await repo.recordAccessTokenUse(ctx, tokenId, now, new Date(now.getTime() - useResolutionMs));
}
