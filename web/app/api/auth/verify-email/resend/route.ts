import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { sendVerificationLink } from '#server/users/email-verification.ts';
import { usersRoutes } from '#server/users/routes.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Sends a new verification link to the signed-in user (at most three per 15 minutes). */
export const POST = route(usersRoutes.resendVerificationEmail, async ({ ctx, caller }) => {
  await sendVerificationLink(ctx, caller.userId);
  return json({ message: 'If your address is not verified yet, a new link is on its way.' }, 202);
});
