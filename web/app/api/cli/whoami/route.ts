import { and, eq } from 'drizzle-orm';
import { requireCaller } from '#server/auth/caller.ts';
import { apiTokens } from '#server/db/schema.ts';
import { json, notFound } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { getUser } from '#server/users/service.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** `postwave whoami`: the caller's user and, for a bearer token, which token it is. */
export const GET = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx);
  const user = await getUser(ctx, caller.userId);
  if (!user) throw notFound('user');
  let token = null;
  if (caller.tokenId) {
    const [row] = await ctx.db
      .select({
        id: apiTokens.id,
        kind: apiTokens.kind,
        name: apiTokens.name,
        expiresAt: apiTokens.expiresAt,
      })
      .from(apiTokens)
      .where(and(eq(apiTokens.id, caller.tokenId), eq(apiTokens.userId, caller.userId)));
    if (row) token = { ...row, expiresAt: row.expiresAt?.toISOString() ?? null };
  }
  return json({ user: { id: user.id, email: user.email, name: user.name }, token });
});
