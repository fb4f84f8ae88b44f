import type { AppContext } from '#server/context.ts';
import { mcpResource, protectedResourceMetadataUrl } from '#server/oauth/metadata.ts';
import { accessTokenPrefix, verifyAccessToken } from '#server/oauth/service.ts';
import { authenticateToken } from '#server/tokens/service.ts';

export interface McpCaller {
  userId: string;
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
    return (
      grant && {
        userId: grant.userId,
        token,
        clientId: grant.clientId,
        scopes: grant.scope.split(' '),
        expiresAt: grant.expiresAt,
      }
    );
  }
  const api = await authenticateToken(ctx, token);
  return api.ok
    ? { userId: api.userId, token, clientId: `api-token:${api.tokenId}`, scopes: ['mcp'] }
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
