import { ProblemError, problem } from '@postwave/shared';
import { returnPath } from '#server/auth/return-path.ts';
import { readBody } from '#server/http/body.ts';
import { route } from '#server/http/route.ts';
import { verifyEmail } from '#server/users/email-verification.ts';
import { usersRoutes } from '#server/users/routes.ts';
import { VerifyEmailRequest } from '#server/users/schema.ts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Uses an e-mail verification link. The page at /verify-email posts here as a plain form (then the
 * answer is a redirect back to the page); JSON clients get 204, or 422 for a dead link.
 */
export const POST = route(usersRoutes.verifyEmail, async ({ request, ctx }) => {
  const isForm = /^application\/x-www-form-urlencoded/i.test(request.headers.get('content-type') ?? '');
  if (isForm) {
    const form = new URLSearchParams((await request.text()).slice(0, 4096));
    const ok = await verifyEmail(ctx, form.get('token') ?? '');
    const next = ok ? returnPath(form.get('next') ?? undefined, ctx.config.appUrl) : undefined;
    const query = new URLSearchParams({ status: ok ? 'verified' : 'invalid', ...(next ? { next } : {}) });
    return new Response(null, {
      status: 303,
      headers: { location: `${ctx.config.appUrl}/verify-email?${query}` },
    });
  }
  const { token } = await readBody(request, VerifyEmailRequest);
  if (!(await verifyEmail(ctx, token))) {
    throw new ProblemError(
      problem('validation_failed', 'This verification link is invalid, expired or already used', {
        errors: [{ path: 'token', code: 'invalid_verification_token', message: 'Ask for a new link.' }],
      }),
    );
  }
  return new Response(null, { status: 204 });
});
