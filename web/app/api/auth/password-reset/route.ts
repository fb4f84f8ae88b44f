import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { clientAddress } from '#server/security/client-address.ts';
import { PasswordResetRequest, requestPasswordReset } from '#server/users/password-reset.ts';
import { usersRoutes } from '#server/users/routes.ts';

export const runtime = 'nodejs';

/** Always the same answer, whether or not the email belongs to an account. */
export const POST = route(usersRoutes.requestPasswordReset, async ({ request, ctx }) => {
  const { email } = await readBody(request, PasswordResetRequest);
  await requestPasswordReset(ctx, email, clientAddress(request, ctx.config.trustProxyHops));
  return json({ message: 'If an account uses this email, a link to reset its password is on its way.' }, 202);
});
