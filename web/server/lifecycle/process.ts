import { setScheduledDueCounter } from '@postwave/shared';
import { startCredentialKeeper } from '../accounts/credential-keeper.ts';
import { startAccountHealthMonitor } from '../accounts/health.ts';
import { startAnalyticsCollector } from '../analytics/collector.ts';
import { getConfig, getContext } from '../context.ts';
import { startInProcessDispatcher } from '../dispatch/in-process.ts';
import { startFeedPoller } from '../feeds/poller.ts';
import { createLogger } from '../logger.ts';
import { countScheduledDue } from '../metrics/repository.ts';
import { startWebhookWorker } from '../webhooks/worker.ts';
import { installShutdownHandler } from './shutdown.ts';
import { logStartupWarnings } from './startup-warnings.ts';

/** What one Scheduler process runs besides serving requests; called from instrumentation.ts. */
export async function startProcess(): Promise<void> {
  const config = getConfig();
  const logger = createLogger(config.logLevel);
  installShutdownHandler({ graceMs: config.shutdownGraceMs, logger });
  logStartupWarnings(logger, config.warnings);
  setScheduledDueCounter(async () => countScheduledDue(await getContext()));
  await startInProcessDispatcher();
  // Idle OAuth connections are renewed ahead of expiry, independent of the dispatcher.
  startCredentialKeeper(await getContext());
  // RSS/Atom feeds of every user, each polled under a lease (FEEDS_POLL_INTERVAL_MS).
  startFeedPoller(await getContext());
  // Webhook deliveries waiting in the database (from before a restart too) go out from here.
  startWebhookWorker(await getContext());
  // Every connected account is checked periodically; leased, so every instance may run it.
  startAccountHealthMonitor(await getContext());
  // Post metrics and followers (docs/analytics.md), leased too; ANALYTICS_ENABLED=false: off.
  startAnalyticsCollector(await getContext());
}
