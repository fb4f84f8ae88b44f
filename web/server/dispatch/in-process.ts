import { getContext } from '#server/context.ts';
import { Dispatcher } from './dispatcher.ts';
import { dispatchOptions } from './service.ts';

const holder = globalThis as typeof globalThis & { __postwaveDispatcher?: Dispatcher };

/**
 * The embedded scheduler (DISPATCHER_ENABLED, the default): a dispatcher that wakes at the
 * earliest due post, on announcements, and at least every DISPATCHER_INTERVAL_MS.
 */
export async function startInProcessDispatcher(): Promise<Dispatcher | undefined> {
  if (holder.__postwaveDispatcher) return holder.__postwaveDispatcher;
  const ctx = await getContext();
  const { enabled, intervalMs } = ctx.config.dispatcher;
  if (!enabled) {
    ctx.logger.info(
      'in-process dispatcher is off (DISPATCHER_ENABLED=false); call the dispatch endpoint from cron',
    );
    return undefined;
  }
  const dispatcher = new Dispatcher(ctx, { ...dispatchOptions(ctx), intervalMs });
  holder.__postwaveDispatcher = dispatcher;
  dispatcher.start();
  ctx.logger.info({ safetyNetPollMs: intervalMs }, 'in-process dispatcher started');
  return dispatcher;
}

/** The running in-process dispatcher, if any (for graceful shutdown). */
export function inProcessDispatcher(): Dispatcher | undefined {
  return holder.__postwaveDispatcher;
}
