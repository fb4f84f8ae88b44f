import { setTimeout } from 'node:timers/promises';
import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { collectDueMetrics, collectionOffsets } from './collect-metrics.ts';
import { enrollPostedTargets, hasHeldTargets, lastRefreshOf, markRefreshed } from './collect-repository.ts';
import { collectingPlatforms } from './enrollment.ts';
import { getPostMetrics } from './get-post-metrics.ts';
import { ownedPostExists } from './repository.ts';
import type { PostMetricsView } from './schema.ts';

/** A post's figures are collected on request at most this often (contract section H). */
export const refreshIntervalMs = 5 * 60_000;

/**
 * `POST /api/v1/posts/{id}/metrics/refresh`: collects the post's figures now, outside their
 * schedule (which stays as it was), and answers them. At most once per 5 minutes per post, across
 * instances (the refresh time is in the database): 429 with `Retry-After` otherwise.
 */
export async function refreshPostMetrics(
  ctx: AppContext,
  owner: string,
  postId: string,
): Promise<PostMetricsView> {
  if (!(await ownedPostExists(ctx, owner, postId))) throw notFound('post');
  // A post that was published moments ago may not be enrolled by the collector yet.
  await enrollPostedTargets(ctx, collectingPlatforms(ctx).posts, collectionOffsets(ctx)[0] ?? 3_600_000);
  const since = new Date(Date.now() - refreshIntervalMs);
  if (!(await markRefreshed(ctx, postId, since, collectionOffsets(ctx).length))) {
    const last = (await lastRefreshOf(ctx, postId))?.getTime();
    // Nothing posted yet (no target to collect): nothing to refresh, nothing to wait for.
    if (last === undefined) return getPostMetrics(ctx, owner, postId);
    const seconds = Math.max(1, Math.ceil((last + refreshIntervalMs - Date.now()) / 1000));
    throw new ProblemError(
      problem(
        'rate_limited',
        `This post's figures were refreshed less than 5 minutes ago; try again in ${seconds} s`,
      ),
      { 'retry-after': String(seconds) },
    );
  }
  // An account another collector holds (its round in flight) gives no target to this claim: the
  // refresh waits for it to be given back, briefly, rather than answer the old figures.
  const lease = `refresh:${crypto.randomUUID()}`;
  for (let waited = 0; ; waited += refreshWaitStepMs) {
    const { targets } = await collectDueMetrics(ctx, {
      owner: lease,
      postId,
      concurrency: ctx.config.analytics.concurrency,
      maxRounds: 1,
    });
    if (targets > 0 || waited >= refreshWaitMs || !(await hasHeldTargets(ctx, postId))) break;
    await setTimeout(refreshWaitStepMs);
  }
  return getPostMetrics(ctx, owner, postId);
}

/** How long a refresh waits for an account another collector holds, and how often it looks. */
const refreshWaitMs = 5_000;
const refreshWaitStepMs = 200;
