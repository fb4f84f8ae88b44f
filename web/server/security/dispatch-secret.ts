import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { safeEqual } from './tokens.ts';

/**
 * The check of the cron endpoints (`/api/internal/*`): `Authorization: Bearer <DISPATCH_SECRET>`,
 * compared in constant time. Without DISPATCH_SECRET they do not exist (404): the in-process
 * dispatcher and collector do the work.
 */
export function requireDispatchSecret(request: Request, ctx: AppContext): void {
  const secret = ctx.config.dispatchSecret;
  if (!secret) throw new ProblemError(problem('not_found', 'Not found'));
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match || !safeEqual(match[1]!, secret)) {
    throw new ProblemError(problem('unauthorized', 'A valid dispatch secret is required'), {
      'WWW-Authenticate': 'Bearer realm="postwave-dispatch"',
    });
  }
}
