import { eq } from 'drizzle-orm';
import { sessionUserId } from '../auth/session.ts';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';

/** The signed-in browser user (cookie session), if the user still exists. */
export async function browserUser(
  ctx: AppContext,
  cookieHeader: string | null,
): Promise<{ id: string; email: string; name: string | null } | undefined> {
  if (!cookieHeader) return undefined;
  const request = new Request(ctx.config.appUrl, { headers: { cookie: cookieHeader } });
  const userId = await sessionUserId(request, ctx.config);
  if (!userId || !/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** The sign-in page, coming back to `returnTo` (a path on this app) afterwards. */
export function signInRedirect(ctx: AppContext, returnTo: string): Response {
  const callbackUrl = new URL(returnTo, ctx.config.appUrl).toString();
  return redirect(`/api/auth/signin?${new URLSearchParams({ callbackUrl })}`);
}

export function redirect(location: string, status = 303): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store' } });
}
