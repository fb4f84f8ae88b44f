import { ProblemError } from '@postwave/shared';
import { cliLinkErrorPage } from '#server/cli-auth/error-page.ts';
import { cliAuthRoutes } from '#server/cli-auth/routes.ts';
import { CliExchangeRequest } from '#server/cli-auth/schema.ts';
import {
  type CliAuthorizeParams,
  cliParamsQuery,
  exchangeCliCode,
  parseCliAuthorizeParams,
} from '#server/cli-auth/service.ts';
import { browserUser, redirect, signInRedirect } from '#server/cli-auth/session.ts';
import { readBody } from '#server/http/body.ts';
import { wantsHtml } from '#server/http/browser.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Step 1 (browser): check the CLI's parameters, then show the approval page (after sign-in). A
 * link that fails the check is a 400: for a browser, the error card; otherwise a problem.
 */
export const GET = route(cliAuthRoutes.startCliAuthorization, async ({ request, ctx }) => {
  let params: CliAuthorizeParams;
  try {
    params = parseCliAuthorizeParams(new URL(request.url).searchParams);
  } catch (error) {
    if (error instanceof ProblemError && wantsHtml(request)) return cliLinkErrorPage(error.message);
    throw error;
  }
  const page = `/cli/authorize?${cliParamsQuery(params)}`;
  if (!(await browserUser(ctx, request.headers.get('cookie')))) return signInRedirect(ctx, page);
  return redirect(page);
});

/** Step 3 (CLI): trade the single-use code and the PKCE verifier for a CLI token. */
export const POST = route(cliAuthRoutes.exchangeCliCode, async ({ request, ctx }) => {
  const body = await readBody(request, CliExchangeRequest);
  const { token, expiresAt } = await exchangeCliCode(ctx, body.code, body.code_verifier);
  return json({ token, expiresAt });
});
