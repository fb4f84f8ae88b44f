import { getContext } from '#server/context.ts';
import { isShuttingDown, trackWork } from '#server/lifecycle/shutdown.ts';
import { dispatchDuePosts, dispatchOptions } from './service.ts';

const holder = globalThis as typeof globalThis & { __postwaveDispatcher?: NodeJS.Timeout };

/**
 * The embedded scheduler: every DISPATCHER_INTERVAL_MS, the same dispatch the cron endpoint runs.
 * Runs never overlap within a process; across processes the database leases keep them apart.
 */
export async function startInProcessDispatcher(): Promise<void> {
  if (holder.__postwaveDispatcher) return;
  const ctx = await getContext();
  const { enabled, intervalMs } = ctx.config.dispatcher;
  if (!enabled) {
    ctx.logger.info(
      'in-process dispatcher is off (DISPATCHER_ENABLED=false); call the dispatch endpoint from cron',
    );
    return;
  }
  let running = false;
  const tick = async () => {
    if (running || isShuttingDown()) return;
    running = true;
    try {
      await trackWork(dispatchDuePosts(ctx, dispatchOptions(ctx)));
    } catch (error) {
      ctx.logger.error({ err: error }, 'in-process dispatch failed');
    } finally {
      running = false;
    }
  };
  holder.__postwaveDispatcher = setInterval(tick, intervalMs);
  holder.__postwaveDispatcher.unref();
  ctx.logger.info({ intervalMs }, 'in-process dispatcher started');
  void tick();
}
