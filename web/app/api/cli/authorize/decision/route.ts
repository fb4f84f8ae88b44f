import { hasNul, ProblemError, problem } from '@postwave/shared';
import { assertSameOrigin } from '#server/auth/same-origin.ts';
import { cliAuthRoutes } from '#server/cli-auth/routes.ts';
import {
  cliParamsQuery,
  issueCliCode,
  loopbackRedirect,
  parseCliAuthorizeParams,
} from '#server/cli-auth/service.ts';
import { browserUser, redirect, signInRedirect } from '#server/cli-auth/session.ts';
import { readLimitedText } from '#server/http/body.ts';
import { route } from '#server/http/route.ts';
import { pickedWorkspace } from '#server/workspaces/pick.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Step 2 (browser): the approval form. Approve → loopback URL with a code; deny → access_denied. */
export const POST = route(cliAuthRoutes.decideCliAuthorization, async ({ request, ctx }) => {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded/i.test(contentType)) {
    throw new ProblemError(problem('unsupported_media_type', 'Send the approval form'));
  }
  const form = new URLSearchParams(
    await readLimitedText(
      request,
      64 * 1024,
      () => new ProblemError(problem('payload_too_large', 'The form is too large')),
    ),
  );
  if (hasNul([...form.keys(), ...form.values()]))
    throw new ProblemError(problem('invalid_request', 'Form fields may not contain NUL characters'));
  const params = parseCliAuthorizeParams(form);
  const user = await browserUser(ctx, request.headers.get('cookie'));
  if (!user) return signInRedirect(ctx, `/cli/authorize?${cliParamsQuery(params)}`);
  assertSameOrigin(request, ctx.config.appUrl);
  if (form.get('decision') !== 'approve')
    return redirect(loopbackRedirect(params, { error: 'access_denied' }));
  const workspaceId = await pickedWorkspace(ctx, user, form.get('workspaceId'));
  const code = await issueCliCode(ctx, user.id, params, workspaceId);
  return redirect(loopbackRedirect(params, { code }));
});
