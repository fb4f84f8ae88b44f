import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { AttemptLimiter, processWide } from '#server/security/attempt-limiter.ts';
import { hashSecret } from '#server/security/tokens.ts';
import { reviewTokenPrefix } from './links.ts';
import { findLiveReviewLink, type ReviewLinkRow } from './repository.ts';

/*
 * Who may use a review link: whoever holds a live one. Each request counts against the token
 * and against the address (in this process, as the other limiters): a guessing script or a
 * leaked link hammering the page is slowed down without a database lookup.
 */

const windowMs = 60_000;
/** A person reading, commenting and deciding stays far below these. */
export const reviewLimits = { perToken: 30, perAddress: 120 } as const;
const byToken = processWide('review:token', () => new AttemptLimiter(reviewLimits.perToken, windowMs));
const byAddress = processWide('review:address', () => new AttemptLimiter(reviewLimits.perAddress, windowMs));

function limited(): ProblemError {
  return new ProblemError(problem('rate_limited', 'Too many requests for this review link. Wait a minute.'), {
    'retry-after': String(windowMs / 1000),
  });
}

/**
 * The live link for `token`, or 404 (unknown, revoked and expired answer alike). The token is
 * looked up by its SHA-256 through the unique index: the stored value is never compared with
 * what the client sent.
 */
export async function openReviewLink(
  ctx: AppContext,
  token: string,
  address: string,
): Promise<ReviewLinkRow> {
  const tokenKey = hashSecret(token);
  if (!byAddress.tryAttempt(address) || !byToken.tryAttempt(tokenKey)) throw limited();
  if (!token.startsWith(reviewTokenPrefix) || token.length > 200) throw notFound('review link');
  const link = await findLiveReviewLink(ctx, tokenKey, new Date());
  if (!link) throw notFound('review link');
  return link;
}
