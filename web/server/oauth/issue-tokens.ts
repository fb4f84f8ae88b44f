import type { AppContext } from '#server/context.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import { mcpScope } from './metadata.ts';
import * as repo from './repository.ts';

export const accessTokenPrefix = 'pwo_';
export const refreshTokenPrefix = 'pwr_';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * A new access/refresh pair in `familyId`: the family is one authorization (one code exchange)
 * and every rotation of its refresh token. Lifetimes: OAUTH_ACCESS_TOKEN_TTL_SECONDS and
 * OAUTH_REFRESH_TOKEN_TTL_SECONDS.
 */
export async function issueTokens(
  ctx: AppContext,
  grant: {
    clientId: string;
    userId: string;
    workspaceId: string;
    scope: string | null;
    resource: string | null;
    familyId: string;
  },
): Promise<TokenResponse> {
  const access = newSecret(accessTokenPrefix);
  const refresh = newSecret(refreshTokenPrefix);
  const { accessTokenTtlSeconds, refreshTokenTtlSeconds } = ctx.config.oauth;
  const now = Date.now();
  await repo.insertTokenPair(ctx, {
    id: crypto.randomUUID(),
    clientId: grant.clientId,
    userId: grant.userId,
    workspaceId: grant.workspaceId,
    familyId: grant.familyId,
    accessTokenHash: hashSecret(access),
    refreshTokenHash: hashSecret(refresh),
    scope: grant.scope,
    resource: grant.resource,
    accessExpiresAt: new Date(now + accessTokenTtlSeconds * 1000),
    refreshExpiresAt: new Date(now + refreshTokenTtlSeconds * 1000),
    createdAt: new Date(now),
  });
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: accessTokenTtlSeconds,
    refresh_token: refresh,
    scope: grant.scope ?? mcpScope,
  };
}
