import { startIntervalSweep } from '#server/background/interval-sweep.ts';
import type { AppContext } from '#server/context.ts';
import { collectDueFollowers } from './collect-followers.ts';
import { type CollectSummary, collectDueMetrics, collectionOffsets } from './collect-metrics.ts';
import { enrollAccounts, enrollPostedTargets } from './collect-repository.ts';
import { collectingPlatforms } from './enrollment.ts';

/*
 * The analytics collector (docs/analytics.md): every ANALYTICS_INTERVAL_MS each instance enrolls
 * newly posted targets and accounts, then collects what is due. All of it is leased in the
 * database, so every instance may run it; ANALYTICS_ENABLED=false turns it off.
 */

const holder = globalThis as typeof globalThis & { __postwaveAnalyticsCollector?: NodeJS.Timeout };

export interface CollectionRun extends CollectSummary {
  enrolled: number;
  accounts: number;
}

/** One collection run: enroll, then collect due targets and due followers. */
export async function runCollection(
  ctx: AppContext,
  owner = `analytics:${crypto.randomUUID()}`,
): Promise<CollectionRun> {
  const platforms = collectingPlatforms(ctx);
  const enrolled = await enrollPostedTargets(ctx, platforms.posts, collectionOffsets(ctx)[0] ?? 3_600_000);
  await enrollAccounts(ctx, platforms.accounts);
  const { concurrency } = ctx.config.analytics;
  const [metrics, followers] = await Promise.all([
    collectDueMetrics(ctx, { owner, concurrency }),
    collectDueFollowers(ctx, { owner, concurrency }),
  ]);
  return { ...metrics, enrolled, accounts: followers.accounts };
}

/** Starts the in-process collector unless ANALYTICS_ENABLED=false. */
export function startAnalyticsCollector(ctx: AppContext): void {
  const { enabled, intervalMs } = ctx.config.analytics;
  if (holder.__postwaveAnalyticsCollector || !enabled) return;
  holder.__postwaveAnalyticsCollector = startIntervalSweep({
    intervalMs,
    runAtStart: false,
    sweep: async () => {
      await runCollection(ctx);
    },
    onError: (error) => ctx.logger.error({ err: error }, 'analytics collection tick failed'),
  });
}
