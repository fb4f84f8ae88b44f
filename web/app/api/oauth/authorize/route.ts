import { browserUser, redirect, signInRedirect } from '#server/cli-auth/session.ts';
import { getContext } from '#server/context.ts';
import { authorizeQuery, parseAuthorizeRequest } from '#server/oauth/authorize-request.ts';
import { authorizeErrorPage } from '#server/oauth/error-page.ts';
import { OAuthError } from '#server/oauth/errors.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The authorization endpoint: checks the request, then the consent page (after sign-in). Errors
 * are shown here, never redirected: the browser goes to the client only after the user approved
 * or denied on the consent page.
 */
export async function GET(request: Request): Promise<Response> {
  const ctx = await getContext();
  const query = new URL(request.url).searchParams;
  try {
    const parsed = await parseAuthorizeRequest(ctx, query);
    const page = `/oauth/consent?${authorizeQuery(parsed)}`;
    if (!(await browserUser(ctx, request.headers.get('cookie')))) return signInRedirect(ctx, page);
    return redirect(page);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return authorizeErrorPage(error.message);
  }
}
