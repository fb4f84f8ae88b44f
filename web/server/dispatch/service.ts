import { recordDispatchLateness } from '@postwave/shared';
import type { SchedulerConfig } from '#server/config.ts';
import type { AppContext } from '#server/context.ts';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { publishLeasedPost } from '#server/posts/publish-leased.ts';
import { renewPostLeases } from '#server/posts/repository.ts';
import { finalizationBatcher, targetClaimBatcher } from './batches.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { type ClaimedPost, claimDuePosts, releasePost } from './repository.ts';
import type { DispatchSummary } from './schema.ts';

/** The dispatcher's configuration (without the in-process timer's own settings). */
export type DispatchOptions = Omit<
  SchedulerConfig['dispatcher'],
  'enabled' | 'intervalMs' | 'stageLeadMs' | 'stageConcurrency' | 'preflightLeadMs'
> &
  /** The staging and pre-flight passes' (the dispatcher loop runs them beside dispatch); absent: none. */
  Partial<Pick<SchedulerConfig['dispatcher'], 'stageLeadMs' | 'stageConcurrency' | 'preflightLeadMs'>> & {
    /** Identifies this dispatcher in lease columns (logs, debugging). */
    owner?: string;
    /** Aborted: claim nothing more and hand back claimed posts not yet started (graceful shutdown). */
    signal?: AbortSignal;
    /** Told about each claimed post as its publishing starts (metrics: lateness = now - scheduledAt). */
    observer?: DispatchObserver;
  };

export interface DispatchObserver {
  publishing?(post: ClaimedPost, startedAt: number): void;
}

export function dispatchOptions(ctx: AppContext): DispatchOptions {
  return { ...ctx.config.dispatcher };
}

/**
 * One dispatch run: claim due posts batch by batch and publish them with bounded concurrency,
 * until nothing is due or the time budget is spent. Posts claimed but not started by then are
 * released; posts in flight finish (their publish deadline is the budget's end).
 */
export async function dispatchDuePosts(ctx: AppContext, options: DispatchOptions): Promise<DispatchSummary> {
  const owner = options.owner ?? `dispatch:${crypto.randomUUID()}`;
  const started = Date.now();
  const budgetEnd = started + options.timeBudgetMs;
  const summary: DispatchSummary = {
    claimed: 0,
    posted: 0,
    failed: 0,
    rescheduled: 0,
    released: 0,
    errored: 0,
    lostLease: 0,
  };
  const queue: ClaimedPost[] = [];
  const concurrency = Math.max(1, options.concurrency);
  /** Posts whose platform calls are over and whose finalization is not written yet. */
  const finishing = new Set<Promise<void>>();
  let exhausted = false;
  let claiming: Promise<void> | undefined;
  const run = {
    accounts: new Map(),
    linkSettings: new Map(),
    batches: { claims: targetClaimBatcher(ctx), finalizations: finalizationBatcher(ctx) },
  };

  // Claims held (queued or publishing) are renewed while they are held: a batch may take longer than the lease.
  const leases = new LeaseKeeper(
    options.leaseMs,
    (ids) => renewPostLeases(ctx, owner, ids, options.leaseMs),
    (error) => ctx.logger.warn({ err: error }, 'could not renew dispatch leases'),
  );

  const stopped = () => options.signal?.aborted === true || Date.now() >= budgetEnd || isShuttingDown();
  const refill = async () => {
    if (exhausted || stopped()) {
      exhausted = true;
      return;
    }
    const batch = await claimDuePosts(ctx, owner, options.batchSize, options.leaseMs);
    summary.claimed += batch.length;
    for (const post of batch) leases.hold(post.id);
    queue.push(...batch);
    if (batch.length < options.batchSize) exhausted = true;
  };

  const claimMore = (): Promise<void> => {
    if (!claiming) {
      claiming = refill().finally(() => {
        claiming = undefined;
      });
      // Awaited by whichever worker finds the queue empty; a prefetch nobody awaits must not crash.
      claiming.catch(() => {});
    }
    return claiming;
  };

  const worker = async () => {
    for (;;) {
      if (queue.length === 0) {
        if (exhausted) return;
        await claimMore();
        continue;
      }
      const post = queue.shift()!;
      // The next batch is claimed while the last posts of this one are published, so workers do
      // not all stop for the claim when the queue runs dry.
      if (queue.length < concurrency && !exhausted) void claimMore();
      // Out of time, stopped, or shutting down: a claim not started goes back at once, for another instance.
      if (stopped()) {
        await releasePost(ctx, post.id, owner);
        leases.release(post.id);
        summary.released++;
        continue;
      }
      if (post.attempts === 1) recordDispatchLateness(post.scheduledAt);
      options.observer?.publishing?.(post, Date.now());
      let settled = false;
      let platformCallsDone!: () => void;
      const callsDone = new Promise<void>((resolve) => {
        platformCallsDone = resolve;
      });
      const publishing = publishLeasedPost(
        ctx,
        post,
        owner,
        {
          kind: 'dispatch',
          maxAttempts: options.maxAttempts,
          retryBaseMs: options.retryBaseMs,
          deadline: Math.max(budgetEnd, Date.now() + 10_000),
          onPlatformCallsDone: platformCallsDone,
        },
        undefined,
        run,
      )
        .then(
          (outcome) => {
            if (outcome.status === 'posted') summary.posted++;
            else if (outcome.status === 'failed') summary.failed++;
            else if (outcome.status === 'scheduled') summary.rescheduled++;
            else if (outcome.status === 'lost_lease') summary.lostLease++;
          },
          (error: unknown) => {
            summary.errored++;
            // The lease stays: the post becomes due again when it expires, and the next run retries it.
            ctx.logger.error({ err: error, postId: post.id }, 'dispatching a post failed unexpectedly');
          },
        )
        .finally(() => {
          settled = true;
          leases.release(post.id);
          finishing.delete(publishing);
        });
      // The worker is free once the platform calls are over: the finalization is written in a
      // batch with others' while it sends the next post. At most `concurrency` posts wait so.
      await Promise.race([publishing, callsDone]);
      // Settled already (it failed before its calls were over): nothing left to wait for.
      if (!settled) finishing.add(publishing);
      while (finishing.size > concurrency) await Promise.race(finishing);
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    await Promise.all(finishing);
  } finally {
    await leases.stop();
  }
  // An idle run every 15 s is not news: log runs that did something at info, the rest at debug.
  const level = summary.claimed > 0 ? 'info' : 'debug';
  ctx.logger[level]({ ...summary, ms: Date.now() - started }, 'dispatch run finished');
  return summary;
}
