import { and, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { type ApiTokenKind, apiTokens } from '#server/db/schema.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import type { TokenSummary } from './schema.ts';

export const apiTokenPrefix = 'pw_';

/** Writing last-used on every request would make each API call a write; once a minute is enough. */
const lastUsedResolutionMs = 60_000;

const dayMs = 24 * 60 * 60 * 1000;
/** Lifetimes a personal token may be given at creation; 90 days when none is chosen. */
export const personalTokenLifetimesDays = [30, 90, 365] as const;
export type PersonalTokenLifetimeDays = (typeof personalTokenLifetimesDays)[number];
export const defaultPersonalTokenLifetimeDays: PersonalTokenLifetimeDays = 90;
/** CLI tokens stay alive while used: each use pushes the expiry to 90 days later. */
export const cliTokenIdleLifetimeMs = 90 * dayMs;

export function personalTokenExpiry(days: PersonalTokenLifetimeDays, now = Date.now()): Date {
  return new Date(now + days * dayMs);
}

export async function listTokens(ctx: AppContext, userId: string): Promise<TokenSummary[]> {
  const rows = await ctx.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(toSummary);
}

/** Issues a token; the secret is returned only here and stored only as a hash. */
export async function createToken(
  ctx: AppContext,
  userId: string,
  input: { name: string; kind?: ApiTokenKind; expiresAt?: Date },
): Promise<TokenSummary & { token: string }> {
  const token = newSecret(apiTokenPrefix);
  const kind = input.kind ?? 'personal';
  const expiresAt =
    input.expiresAt ??
    (kind === 'cli'
      ? new Date(Date.now() + cliTokenIdleLifetimeMs)
      : personalTokenExpiry(defaultPersonalTokenLifetimeDays));
  const [row] = await ctx.db
    .insert(apiTokens)
    .values({
      id: crypto.randomUUID(),
      userId,
      name: input.name,
      kind,
      tokenHash: hashSecret(token),
      createdAt: new Date(),
      expiresAt,
    })
    .returning();
  return { ...toSummary(row!), token };
}

export async function revokeToken(ctx: AppContext, userId: string, tokenId: string): Promise<void> {
  const rows = await ctx.db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (rows.length === 0) throw notFound('token');
}

export type TokenCheck =
  | { ok: true; userId: string; tokenId: string }
  | { ok: false; reason: 'unknown' | 'expired' };

/**
 * The user a bearer token belongs to, if it is live. An expired token is told apart from an
 * unknown or revoked one (401 `token_expired`), so a CLI can ask its user to sign in again.
 * CLI tokens expire 90 days after their last use: each recorded use moves the expiry on.
 */
export async function authenticateToken(ctx: AppContext, token: string): Promise<TokenCheck> {
  if (!token.startsWith(apiTokenPrefix) || token.length > 200) return { ok: false, reason: 'unknown' };
  const now = new Date();
  const [row] = await ctx.db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      kind: apiTokens.kind,
      lastUsedAt: apiTokens.lastUsedAt,
      expiresAt: apiTokens.expiresAt,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashSecret(token)), isNull(apiTokens.revokedAt)));
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, reason: 'expired' };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > lastUsedResolutionMs) {
    await ctx.db
      .update(apiTokens)
      .set({
        lastUsedAt: now,
        ...(row.kind === 'cli' ? { expiresAt: new Date(now.getTime() + cliTokenIdleLifetimeMs) } : {}),
      })
      .where(
        and(
          eq(apiTokens.id, row.id),
          isNull(apiTokens.revokedAt),
          gt(apiTokens.expiresAt, now),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, now)),
        ),
      );
  }
  return { ok: true, userId: row.userId, tokenId: row.id };
}

/** Ends every API and CLI token of a user (password reset). */
export async function revokeAllTokens(ctx: Pick<AppContext, 'db'>, userId: string, now = new Date()) {
  await ctx.db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
}

function toSummary(row: typeof apiTokens.$inferSelect): TokenSummary {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Which token a bearer caller used (never its secret); undefined when it is not this user's. */
export async function describeToken(ctx: AppContext, userId: string, tokenId: string) {
  const [row] = await ctx.db
    .select({ id: apiTokens.id, kind: apiTokens.kind, name: apiTokens.name, expiresAt: apiTokens.expiresAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)));
  return row && { ...row, expiresAt: row.expiresAt?.toISOString() ?? null };
}
