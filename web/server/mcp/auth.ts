import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { mcpResource, protectedResourceMetadataUrl } from '#server/oauth/metadata.ts';
import { accessTokenPrefix, verifyAccessToken } from '#server/oauth/service.ts';
import { authenticateToken } from '#server/tokens/service.ts';
import { boundWorkspace } from '#server/workspaces/membership.ts';

/**
 * Who calls /mcp: a member, through a client they granted (or an API token), in the workspace the
 * grant or token is bound to; tools act with that member's role (docs/workspaces.md#assistants).
 */
export interface McpCaller {
  userId: string;
  workspaceId: string;
  role: WorkspaceRole;
  token: string;
  clientId: string;
  scopes: string[];
  expiresAt?: number;
}

/**
 * /mcp accepts an OAuth access token issued for this resource (audience `${APP_URL}/mcp`), or a
 * personal / CLI API token (those are general-purpose bearer tokens of the same user). OAuth
 * tokens are never accepted on /api/v1: their audience is /mcp only.
 */
export async function authenticateMcp(ctx: AppContext, request: Request): Promise<McpCaller | undefined> {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const token = match[1]!;
  if (token.startsWith(accessTokenPrefix)) {
    const grant = await verifyAccessToken(ctx, token, mcpResource(ctx.config.appUrl));
    const membership = grant && (await boundWorkspace(ctx, grant.userId, grant.workspaceId));
    return (
      grant &&
      membership && {
        userId: grant.userId,
        workspaceId: grant.workspaceId,
        role: membership.role,
        token,
        clientId: grant.clientId,
        scopes: grant.scope.split(' '),
        expiresAt: grant.expiresAt,
      }
    );
  }
  const api = await authenticateToken(ctx, token);
  const membership = api.ok ? await boundWorkspace(ctx, api.userId, api.workspaceId) : undefined;
  return api.ok && membership
    ? {
        userId: api.userId,
        workspaceId: api.workspaceId,
        role: membership.role,
        token,
        clientId: `api-token:${api.tokenId}`,
        scopes: ['mcp'],
      }
    : undefined;
}

/** RFC 9728 §5.1 challenge pointing at the protected resource metadata. */
export function mcpChallenge(ctx: AppContext, request: Request): string {
  const hadToken = request.headers.has('authorization');
  const metadata = protectedResourceMetadataUrl(ctx.config.appUrl);
  return hadToken
    ? `Bearer resource_metadata="${metadata}", error="invalid_token", error_description="The access token is invalid, expired, revoked or not for this resource"`
    : `Bearer resource_metadata="${metadata}"`;
}
