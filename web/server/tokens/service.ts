import { and, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { type ApiTokenKind, apiTokens } from '#server/db/schema.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import type { TokenSummary } from './schema.ts';

export const apiTokenPrefix = 'pw_';

/** Writing last-used on every request would make each API call a write; once a minute is enough. */
const lastUsedResolutionMs = 60_000;

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
  const [row] = await ctx.db
    .insert(apiTokens)
    .values({
      id: crypto.randomUUID(),
      userId,
      name: input.name,
      kind: input.kind ?? 'personal',
      tokenHash: hashSecret(token),
      createdAt: new Date(),
      expiresAt: input.expiresAt ?? null,
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

/** The user a bearer token belongs to, if it is live. */
export async function authenticateToken(
  ctx: AppContext,
  token: string,
): Promise<{ userId: string; tokenId: string } | undefined> {
  if (!token.startsWith(apiTokenPrefix)) return undefined;
  const now = new Date();
  const [row] = await ctx.db
    .select({ id: apiTokens.id, userId: apiTokens.userId, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .where(
      and(
        eq(apiTokens.tokenHash, hashSecret(token)),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
      ),
    );
  if (!row) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > lastUsedResolutionMs) {
    await ctx.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, now))));
  }
  return { userId: row.userId, tokenId: row.id };
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
