import { recordAudit } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import type { ApiTokenKind } from '#server/db/schema.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import * as repo from './repository.ts';
import type { TokenSummary } from './schema.ts';

export const apiTokenPrefix = 'pw_';

/** Writing last-used on every request would make each API call a write; once a minute is enough. */
const lastUsedResolutionMs = 60_000;

const dayMs = 24 * 60 * 60 * 1000;
/** A personal token's lifetime when none is chosen at creation. */
export const defaultPersonalTokenLifetimeDays = 90;
/** CLI tokens stay alive while used: each use pushes the expiry to 90 days later. */
export const cliTokenIdleLifetimeMs = 90 * dayMs;

export function personalTokenExpiry(days: number, now = Date.now()): Date {
  return new Date(now + days * dayMs);
}

/** The member's live tokens bound to this workspace. */
export async function listTokens(
  ctx: AppContext,
  userId: string,
  workspaceId: string,
): Promise<TokenSummary[]> {
  return (await repo.liveTokensOf(ctx, userId, workspaceId)).map(toSummary);
}

/**
 * Issues a token bound to one workspace the user belongs to (the caller checks membership); the
 * secret is returned only here and stored only as a hash.
 */
export async function createToken(
  ctx: AppContext,
  userId: string,
  input: { name: string; workspaceId: string; kind?: ApiTokenKind; expiresAt?: Date },
): Promise<TokenSummary & { token: string }> {
  const token = newSecret(apiTokenPrefix);
  const kind = input.kind ?? 'personal';
  const expiresAt =
    input.expiresAt ??
    (kind === 'cli'
      ? new Date(Date.now() + cliTokenIdleLifetimeMs)
      : personalTokenExpiry(defaultPersonalTokenLifetimeDays));
  // The token and its `token.created` entry commit together (the entry names it, never its secret).
  const row = await inTransaction(ctx, async (tx) => {
    const created = await repo.insertToken(tx, {
      id: crypto.randomUUID(),
      userId,
      workspaceId: input.workspaceId,
      name: input.name,
      kind,
      tokenHash: hashSecret(token),
      createdAt: new Date(),
      expiresAt,
    });
    await auditToken(tx, userId, 'token.created', created);
    return created;
  });
  return { ...toSummary(row), token };
}

/**
 * Revokes one of the user's tokens bound to this workspace (its log gets the entry). A token of
 * another workspace answers 404 and stays live, like a missing one: `GET` lists only this
 * workspace's tokens, and another workspace's resources are never reached from here.
 */
export async function revokeToken(
  ctx: AppContext,
  userId: string,
  workspaceId: string,
  tokenId: string,
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const revoked = await repo.revokeToken(tx, userId, workspaceId, tokenId);
    if (!revoked) throw notFound('token');
    await auditToken(tx, userId, 'token.revoked', revoked);
  });
}

/** A token is its member's own: the member is the actor, in the token's workspace. */
async function auditToken(
  tx: Db,
  userId: string,
  action: 'token.created' | 'token.revoked',
  token: { id: string; workspaceId: string; name: string; kind: string },
): Promise<void> {
  await recordAudit(tx, {
    workspaceId: token.workspaceId,
    actor: { type: 'member', id: userId, name: await repo.memberName(tx, userId) },
    action,
    target: { type: 'token', id: token.id },
    details: { name: token.name, kind: token.kind },
  });
}

export type TokenCheck =
  | { ok: true; userId: string; workspaceId: string; userName: string; tokenId: string }
  | { ok: false; reason: 'unknown' | 'expired' };

/**
 * The user a bearer token belongs to, if it is live. An expired token is told apart from an
 * unknown or revoked one (its 401 challenge says `The token expired`), so a CLI can ask its user
 * to sign in again.
 * CLI tokens expire 90 days after their last use: each recorded use moves the expiry on.
 */
export async function authenticateToken(ctx: AppContext, token: string): Promise<TokenCheck> {
  if (!token.startsWith(apiTokenPrefix) || token.length > 200) return { ok: false, reason: 'unknown' };
  const now = new Date();
  const row = await repo.findLiveTokenByHash(ctx, hashSecret(token));
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, reason: 'expired' };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > lastUsedResolutionMs) {
    const pushedExpiry = row.kind === 'cli' ? new Date(now.getTime() + cliTokenIdleLifetimeMs) : undefined;
    await repo.recordTokenUse(ctx, row.id, now, pushedExpiry);
  }
  return {
    ok: true,
    userId: row.userId,
    workspaceId: row.workspaceId,
    userName: row.userName,
    tokenId: row.id,
  };
}

function toSummary(row: repo.TokenRow): TokenSummary {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    workspaceId: row.workspaceId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Which token a bearer caller used (never its secret); undefined when it is not this user's. */
export async function describeToken(ctx: AppContext, userId: string, tokenId: string) {
  const row = await repo.findTokenOf(ctx, userId, tokenId);
  return row && { ...row, expiresAt: row.expiresAt?.toISOString() ?? null };
}
