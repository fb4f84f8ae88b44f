import { assertNotCrossSite } from '../../../../server/auth/same-origin.ts';
import { sessionCookie } from '../../../../server/auth/session.ts';
import { readBody } from '../../../../server/http/body.ts';
import { json } from '../../../../server/http/respond.ts';
import { route } from '../../../../server/http/route.ts';
import { sendVerificationLink } from '../../../../server/services/email-verification.ts';
import { SignupRequest, signUp } from '../../../../server/services/users.ts';

export const runtime = 'nodejs';

export const POST = route(async (request, ctx) => {
  assertNotCrossSite(request, ctx.config.appUrl);
  const user = await signUp(ctx, await readBody(request, SignupRequest));
  await sendVerificationLink(ctx, user.id);
  return json({ user }, 201, { 'set-cookie': await sessionCookie(ctx.config, user) });
});
