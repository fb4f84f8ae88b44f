import { assertSameOrigin } from '#server/auth/same-origin.ts';
import { browserUser, redirect, signInRedirect } from '#server/cli-auth/session.ts';
import { getContext } from '#server/context.ts';
import { errorResponse } from '#server/http/route.ts';
import { issueAuthorizationCode } from '#server/oauth/authorization-code.ts';
import { authorizeQuery, clientRedirect, parseAuthorizeRequest } from '#server/oauth/authorize-request.ts';
import { authorizeErrorPage } from '#server/oauth/error-page.ts';
import { OAuthError } from '#server/oauth/errors.ts';
import { readForm } from '#server/oauth/http.ts';
import { pickedWorkspace } from '#server/workspaces/pick.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The consent form: approve → redirect URI with a code; deny → access_denied. */
export async function POST(request: Request): Promise<Response> {
  const ctx = await getContext();
  try {
    const form = await readForm(request);
    const parsed = await parseAuthorizeRequest(ctx, form);
    const user = await browserUser(ctx, request.headers.get('cookie'));
    if (!user) return signInRedirect(ctx, `/oauth/consent?${authorizeQuery(parsed)}`);
    assertSameOrigin(request, ctx.config.appUrl);
    if (form.get('decision') !== 'approve') {
      return redirect(
        clientRedirect(ctx, parsed, { error: 'access_denied', error_description: 'The user denied access' }),
      );
    }
    const workspaceId = await pickedWorkspace(ctx, user, form.get('workspaceId'));
    const code = await issueAuthorizationCode(ctx, user.id, parsed, workspaceId);
    return redirect(clientRedirect(ctx, parsed, { code }));
  } catch (error) {
    if (error instanceof OAuthError) return authorizeErrorPage(error.message);
    return errorResponse(error, ctx);
  }
}
