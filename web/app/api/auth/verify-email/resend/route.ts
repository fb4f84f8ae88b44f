import { requireCaller } from '../../../../../server/auth/caller.ts';
import { json } from '../../../../../server/http/respond.ts';
import { route } from '../../../../../server/http/route.ts';
import { sendVerificationLink } from '../../../../../server/services/email-verification.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Sends a new verification link to the signed-in user (at most three per 15 minutes). */
export const POST = route(async (request, ctx) => {
  const caller = await requireCaller(request, ctx, { sessionOnly: true });
  await sendVerificationLink(ctx, caller.userId);
  return json({ message: 'If your address is not verified yet, a new link is on its way.' }, 202);
});
