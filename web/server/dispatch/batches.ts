import type { AppContext } from '#server/context.ts';
import { MicroBatcher } from '#server/db/micro-batcher.ts';
import { finalizeOptions } from '#server/posts/finalize-options.ts';
import { type FinalizedPost, finalizePosts, type PostFinalization } from '#server/posts/repository.ts';
import { type ClaimAnswer, claimTargets, type TargetClaim } from '#server/posts/targets-repository.ts';

/** One INSERT records the publish intents of many posts; each caller learns whether its target is its to send. */
export function targetClaimBatcher(ctx: AppContext): MicroBatcher<TargetClaim, ClaimAnswer> {
  return new MicroBatcher((claims) => claimTargets(ctx, claims));
}

/**
 * One statement writes many posts' final status, their last target results, their timeline events
 * (triggers) and their analytics schedule; answers each post's status (null when the lease was
 * lost) and whether its workspace takes post events.
 */
export function finalizationBatcher(ctx: AppContext): MicroBatcher<PostFinalization, FinalizedPost | null> {
  const options = finalizeOptions(ctx);
  return new MicroBatcher((items) => finalizePosts(ctx, items, options));
}
