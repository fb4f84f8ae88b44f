import type { AppContext } from '#server/context.ts';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { sweepStagedDiscards } from '#server/staging/discard.ts';
import { claimStagings, renewStagingLeases } from '#server/staging/repository.ts';
import { stageClaimedPost, stagingPlatforms } from '#server/staging/stage-post.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import type { CronDispatchSummary } from './schema.ts';
import { dispatchDuePosts, dispatchOptions } from './service.ts';

/**
 * One cron call (`POST /api/internal/scheduled-posts/dispatch`): dispatches the due posts and,
 * beside it within the same time budget, runs a staging pass for posts due within the lead (and
 * removes staged uploads of edited or deleted posts), so a cron-only deployment stages too. A
 * post is staged only if a call comes between its entering the lead and its due time.
 */
export async function runCronDispatch(ctx: AppContext): Promise<CronDispatchSummary> {
  const options = dispatchOptions(ctx);
  const budgetEnd = Date.now() + options.timeBudgetMs;
  const [summary, staging] = await Promise.all([
    dispatchDuePosts(ctx, options),
    stageWithinBudget(ctx, {
      budgetEnd,
      leadMs: options.stageLeadMs ?? 0,
      concurrency: Math.max(1, options.stageConcurrency ?? 4),
      leaseMs: options.leaseMs,
    }),
  ]);
  return { ...summary, ...staging };
}

/**
 * Stages posts due within the lead until none is left or the budget ends; uploads still running
 * then are cut off and handed back (a later call stages them). Never throws.
 */
async function stageWithinBudget(
  ctx: AppContext,
  options: { budgetEnd: number; leadMs: number; concurrency: number; leaseMs: number },
): Promise<{ staged: number; discarded: number }> {
  const signal = AbortSignal.timeout(Math.max(0, options.budgetEnd - Date.now()));
  const owner = `stage:cron:${crypto.randomUUID()}`;
  const platforms = stagingPlatforms(ctx);
  let staged = 0;
  const discards = sweepStagedDiscards(ctx, { signal }).then(
    (sweep) => sweep.discarded,
    (error: unknown) => {
      ctx.logger.warn({ err: error }, 'sweeping staged uploads to discard failed');
      return 0;
    },
  );
  if (options.leadMs <= 0 || platforms.length === 0) return { staged, discarded: await discards };
  const leases = new LeaseKeeper(
    options.leaseMs,
    (ids) => renewStagingLeases(ctx, owner, ids, options.leaseMs),
    (error) => ctx.logger.warn({ err: error }, 'could not renew staging leases'),
  );
  const worker = async () => {
    while (!signal.aborted && !isShuttingDown()) {
      const [claim] = await claimStagings(ctx, owner, { ...options, limit: 1, platforms });
      if (!claim) return;
      leases.hold(claim.post.id);
      try {
        const results = await stageClaimedPost(ctx, claim, owner, signal);
        staged += results.filter((r) => r.status === 'staged').length;
      } finally {
        leases.release(claim.post.id);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } catch (error) {
    ctx.logger.error({ err: error }, 'the staging pass of a cron call failed');
  } finally {
    await leases.stop();
  }
  return { staged, discarded: await discards };
}
