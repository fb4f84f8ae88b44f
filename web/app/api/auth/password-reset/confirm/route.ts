import { readBody } from '#server/http/body.ts';
import { noContent } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { PasswordResetConfirm, resetPassword } from '#server/users/password-reset.ts';
import { usersRoutes } from '#server/users/routes.ts';

export const runtime = 'nodejs';

/** Sets a new password with a reset link's token; the token is used up and older sessions end. */
export const POST = route(usersRoutes.confirmPasswordReset, async ({ request, ctx }) => {
  const { token, password } = await readBody(request, PasswordResetConfirm);
  await resetPassword(ctx, token, password);
  return noContent();
});
