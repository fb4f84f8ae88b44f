import type { AppContext } from '#server/context.ts';
import { hashSecret, pkceChallenge, safeEqual } from '#server/security/tokens.ts';
import { normalizeResource } from './authorize-request.ts';
import { OAuthError } from './errors.ts';
import { issueTokens, type TokenResponse } from './issue-tokens.ts';
import * as repo from './repository.ts';

/**
 * grant_type=authorization_code: single use, bound to client, redirect URI, PKCE and resource.
 * The exchange marks the code used and records the token family it starts; a code presented
 * again means it leaked, so the tokens issued from it are revoked (RFC 6749 §4.1.2).
 */
export async function exchangeAuthorizationCode(
  ctx: AppContext,
  form: URLSearchParams,
): Promise<TokenResponse> {
  const code = form.get('code') ?? '';
  const verifier = form.get('code_verifier') ?? '';
  const clientId = form.get('client_id') ?? '';
  if (!code || !verifier || !clientId)
    throw new OAuthError('invalid_request', 'code, code_verifier and client_id are required');
  const now = new Date();
  const codeHash = hashSecret(code);
  const familyId = crypto.randomUUID();
  const row = await repo.consumeAuthorizationCode(ctx, codeHash, familyId, now);
  if (!row) {
    const usedFamily = await repo.familyOfCode(ctx, codeHash);
    if (usedFamily) await repo.revokeFamilyById(ctx, usedFamily);
    throw new OAuthError('invalid_grant', 'The code is invalid, expired or already used');
  }
  if (!safeEqual(row.clientId, clientId))
    throw new OAuthError('invalid_grant', 'The code was issued to another client');
  if (form.get('redirect_uri') !== row.redirectUri)
    throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !safeEqual(pkceChallenge(verifier), row.codeChallenge))
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const resource = form.get('resource');
  if (resource !== null && normalizeResource(resource) !== row.resource)
    throw new OAuthError('invalid_target', 'resource does not match the authorization request');
  return issueTokens(ctx, {
    clientId: row.clientId,
    userId: row.userId,
    workspaceId: row.workspaceId,
    scope: row.scope,
    resource: row.resource,
    familyId,
  });
}
