import type { AppContext } from '#server/context.ts';
import { hashSecret, newSecret, pkceChallenge, safeEqual } from '#server/security/tokens.ts';
import { ClientMetadataError, findClient, type OAuthClient } from './clients.ts';
import { noteAccessTokenUse } from './connections.ts';
import { mcpResource, mcpScope } from './metadata.ts';
import * as repo from './repository.ts';

export const codeLifetimeMs = 5 * 60 * 1000;
export const accessTokenPrefix = 'pwo_';
const refreshTokenPrefix = 'pwr_';

/** An error the client sees (RFC 6749 codes). */
export class OAuthError extends Error {
  override name = 'OAuthError';
  readonly error: string;
  readonly status: number;
  constructor(error: string, message: string, options: { status?: number } = {}) {
    super(message);
    this.error = error;
    this.status = options.status ?? 400;
  }
}

export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scope: string;
  resource: string;
}

/**
 * Checks an authorization request. Every error found here is shown on our own error page and
 * never sent to the redirect URI: registration is open, so anyone can register a client whose
 * redirect URI is a page of theirs, and a redirect before the user acted on the consent page
 * would make this endpoint an open redirector (RFC 9700 §4.11.2).
 */
export async function parseAuthorizeRequest(ctx: AppContext, q: URLSearchParams): Promise<AuthorizeRequest> {
  const clientId = q.get('client_id') ?? '';
  let client: OAuthClient | undefined;
  try {
    client = clientId ? await findClient(ctx, clientId) : undefined;
  } catch (error) {
    if (error instanceof ClientMetadataError) throw new OAuthError('invalid_client', error.message);
    throw error;
  }
  if (!client)
    throw new OAuthError('invalid_client', 'Unknown client_id: the application must register again');
  const redirectUri = q.get('redirect_uri') ?? '';
  // Exact string match against a registered URI (no prefix or pattern matching).
  if (!client.redirectUris.includes(redirectUri)) {
    throw new OAuthError('invalid_request', 'redirect_uri does not exactly match a registered redirect URI');
  }
  const state = q.get('state') ?? undefined;
  if (state !== undefined && state.length > 1000)
    throw new OAuthError('invalid_request', 'state is too long');
  const fail = (error: string, message: string) => new OAuthError(error, message);
  if (q.get('response_type') !== 'code')
    throw fail('unsupported_response_type', 'response_type must be code');
  if (q.get('code_challenge_method') !== 'S256')
    throw fail('invalid_request', 'PKCE with code_challenge_method=S256 is required');
  const codeChallenge = q.get('code_challenge') ?? '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge))
    throw fail('invalid_request', 'code_challenge must be a base64url SHA-256');
  const requested = (q.get('scope') ?? '').split(' ').filter(Boolean);
  if (requested.some((s) => s !== mcpScope)) throw fail('invalid_scope', `The only scope is "${mcpScope}"`);
  const resources = q.getAll('resource');
  const expected = mcpResource(ctx.config.appUrl);
  if (resources.length > 1 || (resources.length === 1 && normalizeResource(resources[0]!) !== expected)) {
    throw fail('invalid_target', `resource must be ${expected}`);
  }
  return { client, redirectUri, state, codeChallenge, scope: mcpScope, resource: expected };
}

function normalizeResource(value: string): string {
  return value.replace(/\/+$/, '');
}

/** The query that carries a checked request from the authorize endpoint to the consent page and form. */
export function authorizeQuery(r: AuthorizeRequest): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: r.client.id,
    redirect_uri: r.redirectUri,
    code_challenge: r.codeChallenge,
    code_challenge_method: 'S256',
    scope: r.scope,
    resource: r.resource,
  });
  if (r.state !== undefined) q.set('state', r.state);
  return q.toString();
}

export function clientRedirect(
  ctx: AppContext,
  r: { redirectUri: string; state?: string },
  params: Record<string, string>,
): string {
  const url = new URL(r.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (r.state !== undefined) url.searchParams.set('state', r.state);
  url.searchParams.set('iss', ctx.config.appUrl);
  return url.toString();
}

/** A code for the signed-in user's consent, bound to the workspace they picked on the consent screen. */
export async function issueAuthorizationCode(
  ctx: AppContext,
  userId: string,
  r: AuthorizeRequest,
  workspaceId: string,
): Promise<string> {
  const code = newSecret('pwa_');
  const now = new Date();
  await repo.insertAuthorizationCode(ctx, {
    codeHash: hashSecret(code),
    clientId: r.client.id,
    userId,
    workspaceId,
    redirectUri: r.redirectUri,
    codeChallenge: r.codeChallenge,
    scope: r.scope,
    resource: r.resource,
    expiresAt: new Date(now.getTime() + codeLifetimeMs),
    createdAt: now,
  });
  return code;
}

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
async function issueTokens(
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
