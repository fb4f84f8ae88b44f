import type { AppContext } from '#server/context.ts';
import { hashSecret, safeEqual } from '#server/security/tokens.ts';
import { normalizeResource } from './authorize-request.ts';
import { OAuthError } from './errors.ts';
import { issueTokens, type TokenResponse } from './issue-tokens.ts';
import * as repo from './repository.ts';

/**
 * grant_type=refresh_token with rotation: the presented token's row is revoked and a new pair is
 * issued in the same family. A refresh token presented again after rotation means it leaked:
 * every token of its family (that one authorization and its rotations) is revoked. Other
 * authorizations of the same user and client are not affected.
 */
export async function refreshTokens(ctx: AppContext, form: URLSearchParams): Promise<TokenResponse> {
  const refresh = form.get('refresh_token') ?? '';
  const clientId = form.get('client_id') ?? '';
  if (!refresh || !clientId)
    throw new OAuthError('invalid_request', 'refresh_token and client_id are required');
  const hash = hashSecret(refresh);
  const now = new Date();
  // A wrong resource or a wider scope is the client's mistake, not a leak: refused before the
  // token is spent, so the grant survives it. (Tokens of another client, or spent ones, go on below.)
  const presented = await repo.findTokenPairByHash(ctx, 'refresh', hash);
  if (presented && !presented.revokedAt && safeEqual(presented.clientId, clientId))
    checkRefreshParameters(form, presented);
  const rotated = await repo.revokeLiveRefreshToken(ctx, hash, now);
  if (!rotated) {
    const seen = await repo.findTokenPairByHash(ctx, 'refresh', hash);
    if (seen?.revokedAt) await repo.revokeFamilyOf(ctx, seen);
    throw new OAuthError('invalid_grant', 'The refresh token is invalid, expired, revoked or already used');
  }
  if (!safeEqual(rotated.clientId, clientId)) {
    await repo.revokeFamilyOf(ctx, rotated);
    throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
  }
  checkRefreshParameters(form, rotated);
  // Rows from before token families existed start a family of their own on their first rotation.
  return issueTokens(ctx, { ...rotated, familyId: rotated.familyId ?? crypto.randomUUID() });
}

/** A refresh's `resource` and `scope`, when sent, must be the grant's (RFC 8707, RFC 6749 §6). */
function checkRefreshParameters(
  form: URLSearchParams,
  grant: { resource: string | null; scope: string | null },
): void {
  const resource = form.get('resource');
  if (resource !== null && normalizeResource(resource) !== grant.resource)
    throw new OAuthError('invalid_target', 'resource does not match the grant');
  const scope = form.get('scope');
  if (scope?.split(' ').some((s) => s && s !== grant.scope))
    throw new OAuthError('invalid_scope', 'A refresh cannot widen the scope');
}
