import { browserUser, redirect, signInRedirect } from '#server/cli-auth/session.ts';
import { getContext } from '#server/context.ts';
import { errorPage } from '#server/oauth/error-page.ts';
import { authorizeQuery, clientRedirect, OAuthError, parseAuthorizeRequest } from '#server/oauth/service.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The authorization endpoint: checks the request, then the consent page (after sign-in). */
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
    if (error.redirect) {
      return redirect(
        clientRedirect(
          ctx,
          { redirectUri: query.get('redirect_uri')!, state: query.get('state') ?? undefined },
          {
            error: error.error,
            error_description: error.message,
          },
        ),
      );
    }
    return errorPage(error.message);
  }
}
