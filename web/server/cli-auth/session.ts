import { eq } from 'drizzle-orm';
import { sessionClaims, sessionIsCurrent } from '#server/auth/session.ts';
import type { AppContext } from '#server/context.ts';
import { users } from '#server/db/schema.ts';

/** The signed-in browser user (cookie session), if the user still exists. */
export async function browserUser(
  ctx: AppContext,
  cookieHeader: string | null,
): Promise<{ id: string; email: string; name: string | null } | undefined> {
  if (!cookieHeader) return undefined;
  const request = new Request(ctx.config.appUrl, { headers: { cookie: cookieHeader } });
  const claims = await sessionClaims(request, ctx.config);
  if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.userId)) return undefined;
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email, name: users.name, validAfter: users.sessionsValidAfter })
    .from(users)
    .where(eq(users.id, claims.userId));
  if (!row || !sessionIsCurrent(claims.authTime, row.validAfter)) return undefined;
  return { id: row.id, email: row.email, name: row.name };
}

/** The product's sign-in page for coming back to `returnTo` (a path on this app) afterwards. */
export function signInLocation(ctx: AppContext, returnTo: string): string {
  const callbackUrl = new URL(returnTo, ctx.config.appUrl).toString();
  return `/signin?${new URLSearchParams({ callbackUrl })}`;
}

/** A redirect to the sign-in page, coming back to `returnTo` afterwards. */
export function signInRedirect(ctx: AppContext, returnTo: string): Response {
  return redirect(signInLocation(ctx, returnTo));
}

export function redirect(location: string, status = 303): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store' } });
}
