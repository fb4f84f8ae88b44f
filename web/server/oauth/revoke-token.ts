import type { AppContext } from '#server/context.ts';
import { hashSecret, safeEqual } from '#server/security/tokens.ts';
import { OAuthError } from './errors.ts';
import { refreshTokenPrefix } from './issue-tokens.ts';
import * as repo from './repository.ts';

/**
 * RFC 7009: an access token is revoked with its pair; a refresh token revokes its whole family
 * (the grant, RFC 7009 §2.1). Unknown tokens are not an error.
 */
export async function revokeToken(ctx: AppContext, form: URLSearchParams): Promise<void> {
  const token = form.get('token') ?? '';
  const clientId = form.get('client_id');
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  const hash = hashSecret(token);
  const kind = token.startsWith(refreshTokenPrefix) ? 'refresh' : 'access';
  const row = await repo.findTokenPairByHash(ctx, kind, hash);
  if (!row || (clientId !== null && !safeEqual(row.clientId, clientId))) return;
  if (kind === 'refresh') await repo.revokeFamilyOf(ctx, row);
  else await repo.revokeTokenPair(ctx, row.id);
}
