import type { AppContext } from '#server/context.ts';
import { hashSecret, safeEqual } from '#server/security/tokens.ts';
import { noteAccessTokenUse } from './connections.ts';
import { accessTokenPrefix } from './issue-tokens.ts';
import { mcpScope } from './metadata.ts';
import * as repo from './repository.ts';

export interface AccessGrant {
  userId: string;
  /** The workspace picked on the consent screen: the grant acts there only. */
  workspaceId: string;
  clientId: string;
  scope: string;
  expiresAt: number;
}

/** A live access token for exactly this resource (audience); anything else is undefined. */
export async function verifyAccessToken(
  ctx: AppContext,
  token: string,
  resource: string,
): Promise<AccessGrant | undefined> {
  if (!token.startsWith(accessTokenPrefix)) return undefined;
  const now = new Date();
  const row = await repo.findLiveAccessToken(ctx, hashSecret(token), now);
  if (!row || row.resource === null || !safeEqual(row.resource, resource)) return undefined;
  // "Last used" in Settings is informational: never fail a request because recording it failed.
  await noteAccessTokenUse(ctx, row.id).catch(() => {});
  return {
    userId: row.userId,
    workspaceId: row.workspaceId,
    clientId: row.clientId,
    scope: row.scope ?? mcpScope,
    expiresAt: Math.floor(row.accessExpiresAt.getTime() / 1000),
  };
}
