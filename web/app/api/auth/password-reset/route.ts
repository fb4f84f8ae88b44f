import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { clientAddress } from '#server/security/client-address.ts';
import { PasswordResetRequest, requestPasswordReset } from '#server/users/password-reset.ts';
import { usersRoutes } from '#server/users/routes.ts';

export const runtime = 'nodejs';

/**
 * Always the same answer, whether or not the email belongs to an account. Without SMTP nothing is
 * e-mailed, so the answer does not say a link is on its way (docs/scheduler.md#password-reset).
 */
export const POST = route(usersRoutes.requestPasswordReset, async ({ request, ctx }) => {
  const { email } = await readBody(request, PasswordResetRequest);
  await requestPasswordReset(ctx, email, clientAddress(request, ctx.config.trustProxyHops));
  const message = ctx.config.mail
    ? 'If an account uses this email, a link to reset its password is on its way.'
    : 'This server cannot send e-mail (no SMTP server is set up), so no e-mail was sent. If an account uses this email, its reset link was written to the server’s log: ask whoever runs this server for it.';
  return json({ message }, 202);
});
