import type { AppContext } from '#server/context.ts';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { loadAccount } from './collect-metrics.ts';
import { claimDueAccounts, recordFollowers, rescheduleAccount } from './collect-repository.ts';
import { callPlatform, retryDelayMs } from './platform-call.ts';

/*
 * Each account's own figures once a day (docs/analytics.md#collection): claimed under a lease so
 * instances never ask twice, written as that UTC day's row.
 */

const dayMs = 86_400_000;

export async function collectDueFollowers(
  ctx: AppContext,
  options: { owner: string; concurrency?: number; leaseMs?: number; limit?: number },
): Promise<{ accounts: number; failed: number }> {
  const claimed = await claimDueAccounts(ctx, options.owner, {
    limit: options.limit ?? 200,
    leaseMs: options.leaseMs ?? 300_000,
  });
  let failed = 0;
  const queue = [...claimed];
  const worker = async () => {
    for (let id = queue.shift(); id && !isShuttingDown(); id = queue.shift()) {
      if (!(await collectOne(ctx, options.owner, id))) failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return { accounts: claimed.length, failed };
}

async function collectOne(ctx: AppContext, owner: string, accountId: string): Promise<boolean> {
  const account = await loadAccount(ctx, accountId);
  const publisher = account && account !== 'later' ? ctx.publishers.get(account.platform) : undefined;
  if (!account || account === 'later' || !publisher?.accountMetrics) {
    await rescheduleAccount(ctx, owner, accountId, new Date(Date.now() + dayMs));
    return account !== 'later';
  }
  try {
    const figures = await callPlatform(ctx, publisher, account, (context) =>
      publisher.accountMetrics!(account, context),
    );
    const now = new Date();
    await recordFollowers(ctx, accountId, figures.followers ?? null, now);
    await rescheduleAccount(ctx, owner, accountId, new Date(now.getTime() + dayMs));
    return true;
  } catch (error) {
    ctx.logger.warn({ err: error, accountId, platform: account.platform }, 'collecting followers failed');
    await rescheduleAccount(
      ctx,
      owner,
      accountId,
      new Date(Date.now() + Math.min(dayMs, retryDelayMs(error))),
    );
    return false;
  }
}
