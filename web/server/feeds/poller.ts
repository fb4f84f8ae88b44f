import { startIntervalSweep } from '#server/background/interval-sweep.ts';
import type { AppContext } from '#server/context.ts';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { dueFeedIds } from './repository.ts';
import { pollFeed } from './service.ts';

const holder = globalThis as typeof globalThis & { __postwaveFeedPoller?: NodeJS.Timeout };

/** Due feeds polled per tick; the rest wait for the next tick. */
const feedsPerTick = 25;

/** One tick: polls the due feeds nobody holds (each under its lease, so instances never overlap). */
export async function pollDueFeeds(ctx: AppContext): Promise<number> {
  let polled = 0;
  for (const id of await dueFeedIds(ctx, feedsPerTick)) {
    if (isShuttingDown()) break;
    const result = await pollFeed(ctx, id);
    if (result.status !== 'busy') polled++;
  }
  return polled;
}

/** Every FEEDS_POLL_INTERVAL_MS (default 60 s; 0: off), one tick at a time. */
export function startFeedPoller(ctx: AppContext): void {
  const intervalMs = ctx.config.feedsPollIntervalMs;
  if (holder.__postwaveFeedPoller || intervalMs === 0) return;
  holder.__postwaveFeedPoller = startIntervalSweep({
    intervalMs,
    runAtStart: false,
    sweep: async () => {
      await pollDueFeeds(ctx);
    },
    onError: (error) => ctx.logger.error({ err: error }, 'feed poller tick failed'),
  });
}
