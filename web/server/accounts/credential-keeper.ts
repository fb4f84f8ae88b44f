import { isPlatformError, type PlatformAccount, withDeadline } from '@postwave/shared';
import { startIntervalSweep } from '#server/background/interval-sweep.ts';
import type { AppContext } from '#server/context.ts';
import { activeAccountRows } from './connect-repository.ts';
import { saveRefreshedCredentials, toPlatformAccount } from './credentials.ts';
import { credentialExpiry, markAccountRefused } from './health.ts';

/*
 * Publishers renew a token when a publish finds it close to expiry. An account that posts
 * rarely would still lose a 60-day token, so this sweep asks the SDK to verify every connection
 * whose stated expiry falls in the next days: the publisher renews it the same way (and reports
 * it through onCredentialsRefreshed), and a refused renewal marks the account needs_reconnect.
 */

/** Renew connections that expire within this window (platforms renew in their last week). */
const horizonMs = 8 * 24 * 60 * 60 * 1000;
/**
 * Tokens closer to expiry than this are left to the next publish: short-lived tokens (hours)
 * renew on use, and a sweep renewing them could race a publish over a rotating refresh token.
 */
const floorMs = 10 * 60 * 1000;

export interface KeeperRun {
  checked: number;
  refreshed: number;
  needsReconnect: number;
}

export async function refreshExpiringConnections(ctx: AppContext, now = Date.now()): Promise<KeeperRun> {
  const run: KeeperRun = { checked: 0, refreshed: 0, needsReconnect: 0 };
  // Accounts of one login share a grant: it is renewed once, through the first of them.
  const grantsSeen = new Set<string>();
  for (const row of await activeAccountRows(ctx)) {
    const publisher = ctx.publishers.get(row.platform);
    if (!publisher) continue;
    if (row.grantId) {
      if (grantsSeen.has(row.grantId)) continue;
      grantsSeen.add(row.grantId);
    }
    let account: PlatformAccount;
    try {
      account = await toPlatformAccount(ctx, row);
    } catch {
      continue; // unreadable with the current keys: publishing reports it
    }
    const expiresAt = credentialExpiry(account.credentials);
    if (expiresAt === undefined || expiresAt - now < floorMs || expiresAt - now > horizonMs) continue;
    run.checked++;
    const deadline = withDeadline(undefined, 30_000);
    try {
      await publisher.verifyCredentials(account, {
        signal: deadline.signal,
        onCredentialsRefreshed: async (fresh) => {
          await saveRefreshedCredentials(ctx, row.id, fresh);
          run.refreshed++;
        },
      });
    } catch (error) {
      if (
        isPlatformError(error) &&
        (error.code === 'needs_reconnect' || error.code === 'credentials_invalid')
      ) {
        await markAccountRefused(ctx, row.id, row.platform, { current: true });
        run.needsReconnect++;
      } else {
        ctx.logger.warn(
          {
            accountId: row.id,
            platform: row.platform,
            err: error instanceof Error ? error.message : String(error),
          },
          'renewing a connection failed; the next sweep or publish tries again',
        );
      }
    } finally {
      deadline.dispose();
    }
  }
  return run;
}

const holder = globalThis as typeof globalThis & { __postwaveCredentialKeeper?: NodeJS.Timeout };

/** Every CREDENTIAL_REFRESH_INTERVAL_MS (default 6 hours; 0: off), one sweep at a time. */
export function startCredentialKeeper(ctx: AppContext): void {
  const intervalMs = ctx.config.credentialRefreshIntervalMs;
  if (holder.__postwaveCredentialKeeper || intervalMs === 0) return;
  holder.__postwaveCredentialKeeper = startIntervalSweep({
    intervalMs,
    runAtStart: true,
    sweep: async () => {
      const run = await refreshExpiringConnections(ctx);
      if (run.checked > 0) ctx.logger.info(run, 'renewed connections ahead of expiry');
    },
    onError: (error) => ctx.logger.error({ err: error }, 'connection renewal sweep failed'),
  });
}
