import { assertNotCrossSite } from '#server/auth/same-origin.ts';
import { sessionCookie } from '#server/auth/session.ts';
import { readBody } from '#server/http/body.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { sendVerificationLink } from '#server/users/email-verification.ts';
import { usersRoutes } from '#server/users/routes.ts';
import { SignupRequest } from '#server/users/schema.ts';
import { signUp } from '#server/users/sign-up.ts';
import { sessionWorkspace } from '#server/workspaces/membership.ts';

export const runtime = 'nodejs';

export const POST = route(usersRoutes.signUp, async ({ request, ctx }) => {
  assertNotCrossSite(request, ctx.config.appUrl);
  const user = await signUp(ctx, await readBody(request, SignupRequest));
  await sendVerificationLink(ctx, user.id);
  // The session starts in the new personal workspace, kept in its cookie (docs/workspaces.md#switching).
  const { workspace } = await sessionWorkspace(ctx, user.id);
  return json({ user }, 201, { 'set-cookie': await sessionCookie(ctx.config, user, workspace.id) });
});
