import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { accessTokenPrefix } from '#server/oauth/issue-tokens.ts';
import { mcpResource, protectedResourceMetadataUrl } from '#server/oauth/metadata.ts';
import { verifyAccessToken } from '#server/oauth/verify-access-token.ts';
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
  const token = bearerToken(request);
  if (token === undefined) return undefined;
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

/** The bearer token in the request's Authorization header (RFC 6750 §2.1), if it has one. */
function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  return (header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null)?.[1];
}

/**
 * Why /mcp refused a request: the RFC 9728 §5.1 challenge pointing at the protected resource
 * metadata, the problem's detail and, only when a token was sent and refused, OAuth's
 * `invalid_token`. RFC 6750 §3.1: a request without credentials (none, or another scheme) gets no
 * error code, since nothing in it was invalid; a client just starts authorization.
 */
export function mcpRefusal(
  ctx: AppContext,
  request: Request,
): { challenge: string; detail: string; error?: 'invalid_token' } {
  const base = `Bearer realm="postwave", resource_metadata="${protectedResourceMetadataUrl(ctx.config.appUrl)}"`;
  if (bearerToken(request) === undefined)
    return { challenge: base, detail: 'Authorization with a Postwave OAuth token is required' };
  const detail = 'The access token is invalid, expired, revoked or not for this resource';
  return {
    challenge: `${base}, error="invalid_token", error_description="${detail}"`,
    detail,
    error: 'invalid_token',
  };
}
