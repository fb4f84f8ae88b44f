import { sessionClaims } from '#server/auth/session.ts';
import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/users/get-user.ts';

/** The signed-in browser user (cookie session), if the user still exists. */
export async function browserUser(
  ctx: AppContext,
  cookieHeader: string | null,
): Promise<{ id: string; email: string; name: string | null; workspaceId: string | undefined } | undefined> {
  if (!cookieHeader) return undefined;
  const request = new Request(ctx.config.appUrl, { headers: { cookie: cookieHeader } });
  const claims = await sessionClaims(request, ctx.config);
  if (!claims) return undefined;
  const row = await sessionUser(ctx, claims.userId, claims.authTime);
  if (!row) return undefined;
  // The session's own workspace, which the consent pages offer first.
  return { id: row.id, email: row.email, name: row.name, workspaceId: claims.workspaceId };
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
