import { ProblemError, problem } from '@postwave/shared';
import { runCronDispatch } from '#server/dispatch/cron.ts';
import { dispatchRoutes } from '#server/dispatch/routes.ts';
import { json } from '#server/http/respond.ts';
import { route } from '#server/http/route.ts';
import { safeEqual } from '#server/security/tokens.ts';

export const runtime = 'nodejs';
export const maxDuration = 60;

export const POST = route(dispatchRoutes.dispatchScheduledPosts, async ({ request, ctx }) => {
  const secret = ctx.config.dispatchSecret;
  // Without DISPATCH_SECRET the endpoint does not exist (the in-process dispatcher does the work).
  if (!secret) throw new ProblemError(problem('not_found', 'Not found'));
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match || !safeEqual(match[1]!, secret)) {
    throw new ProblemError(problem('unauthorized', 'A valid dispatch secret is required'), {
      'WWW-Authenticate': 'Bearer realm="postwave-dispatch"',
    });
  }
  const summary = await runCronDispatch(ctx);
  return json(summary);
});
