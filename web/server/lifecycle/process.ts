import { setScheduledDueCounter } from '@postwave/shared';
import { startCredentialKeeper } from '../accounts/credential-keeper.ts';
import { startAccountHealthMonitor } from '../accounts/health.ts';
import { getConfig, getContext } from '../context.ts';
import { startInProcessDispatcher } from '../dispatch/in-process.ts';
import { logAppUrlAtStart } from '../http/app-origin.ts';
import { createLogger } from '../logger.ts';
import { countScheduledDue } from '../metrics/repository.ts';
import { installShutdownHandler } from './shutdown.ts';

/** What one Scheduler process runs besides serving requests; called from instrumentation.ts. */
export async function startProcess(): Promise<void> {
  const config = getConfig();
  const logger = createLogger(config.logLevel);
  installShutdownHandler({ graceMs: config.shutdownGraceMs, logger });
  logAppUrlAtStart(config, logger);
  setScheduledDueCounter(async () => countScheduledDue(await getContext()));
  await startInProcessDispatcher();
  // Idle OAuth connections are renewed ahead of expiry, independent of the dispatcher.
  startCredentialKeeper(await getContext());
  // Every connected account is checked periodically; leased, so every instance may run it.
  startAccountHealthMonitor(await getContext());
}
