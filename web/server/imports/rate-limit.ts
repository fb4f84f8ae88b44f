import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { AttemptLimiter, processWide } from '#server/security/attempt-limiter.ts';

/** The limiter's window: `IMPORT_RATE_LIMIT` counts imports per minute. */
const windowMs = 60_000;

/**
 * Counts one import (a dry run too: it downloads media and checks every row) for the user, as
 * link previews are counted (same limiter, one count per process); beyond `IMPORT_RATE_LIMIT` a
 * minute, 429 `rate_limited` with `Retry-After`. Taken before the body is read, so a refused
 * request costs nothing. See docs/import-export.md#limits.
 */
export function countImport(ctx: AppContext, userId: string, now = Date.now()): void {
  const limit = ctx.config.imports.perUserPerMinute;
  const limiter = processWide(`imports:user:${limit}`, () => new AttemptLimiter(limit, windowMs));
  if (!limiter.tryAttempt(userId, now)) {
    throw new ProblemError(
      problem('rate_limited', `At most ${limit} imports a minute. Wait a minute and try again.`),
      { 'retry-after': String(windowMs / 1000) },
    );
  }
}
