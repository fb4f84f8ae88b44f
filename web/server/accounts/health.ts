import {
  isPlatformError,
  type PlatformAccount,
  type PlatformErrorCode,
  withDeadline,
} from '@postwave/shared';
import { startIntervalSweep } from '#server/background/interval-sweep.ts';
import type { AppContext } from '#server/context.ts';
import type { AccountHealth } from '#server/db/schema.ts';
import { saveRefreshedCredentials, toPlatformAccount } from './credentials.ts';
import { accountsOfGrant } from './grant-repository.ts';
import { announce, defaultEffects, type HealthEffects } from './health-announce.ts';
import {
  claimAccountsDueForCheck,
  type HealthChange,
  recordHealth,
  releaseHealthLease,
} from './health-repository.ts';
import { type AccountRow, findAccountById } from './repository.ts';

export { badHealth, type HealthEffects } from './health-announce.ts';

/*
 * Account health (docs/operations.md#account-health): every connected account is checked at least once per
 * ACCOUNT_HEALTH_INTERVAL_MS by asking its publisher to verify the stored credentials. The
 * publisher renews a token that is close to expiry while doing so (onCredentialsRefreshed), so
 * the check also keeps idle connections alive. What it finds is stored on the account; a change
 * into a state the user must act on is announced once (webhook, e-mail), never on every check.
 */

/** What a check found. `reason` is ours, in words for the user: never the platform's raw reply. */
export interface HealthFinding {
  health: AccountHealth;
  reason: string | null;
}

/**
 * A token this close to expiry (or already expired) whose account carries a refresh token is
 * left to the next publish: a check renewing it could race that publish over a rotating refresh
 * token. It is checked again at the next sweep.
 */
const imminentMs = 10 * 60 * 1000;
/** How long a sweep holds the accounts it claimed (each check has its own 30 s deadline). */
const leaseMs = 5 * 60 * 1000;

const refusedCodes: ReadonlySet<PlatformErrorCode> = new Set(['needs_reconnect', 'credentials_invalid']);
/** Failures that say nothing about the credentials: the health stays as it was. */
const inconclusiveCodes: ReadonlySet<PlatformErrorCode> = new Set(['rate_limited']);

/** When stored credentials expire (ms since epoch), from their `expiresAt`; undefined when they do not say. */
export function credentialExpiry(credentials: Record<string, unknown>): number | undefined {
  const value = credentials.expiresAt;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

const hasRefreshToken = (credentials: Record<string, unknown>) =>
  typeof credentials.refreshToken === 'string' && credentials.refreshToken.length > 0;

/** Checks one account; undefined when the check was skipped or said nothing. */
export async function checkAccount(
  ctx: AppContext,
  row: AccountRow,
  now = Date.now(),
): Promise<HealthFinding | undefined> {
  const publisher = ctx.publishers.get(row.platform);
  if (!publisher) return undefined; // a platform this build no longer has: nothing to check with
  let account: PlatformAccount;
  try {
    account = await toPlatformAccount(ctx, row);
  } catch {
    return {
      health: 'needs_reconnect',
      reason:
        'The stored credentials cannot be read with the current encryption keys; reconnect the account.',
    };
  }
  const storedExpiry = credentialExpiry(account.credentials);
  if (
    storedExpiry !== undefined &&
    storedExpiry - now < imminentMs &&
    storedExpiry > now &&
    hasRefreshToken(account.credentials)
  ) {
    return undefined;
  }
  let credentials = account.credentials;
  const deadline = withDeadline(undefined, 30_000);
  try {
    await publisher.verifyCredentials(account, {
      signal: deadline.signal,
      accountHostFetch: ctx.userUrlFetch,
      onCredentialsRefreshed: async (fresh) => {
        credentials = fresh;
        await saveRefreshedCredentials(ctx, row.id, fresh);
      },
    });
  } catch (error) {
    if (!isPlatformError(error)) {
      ctx.logger.error(
        {
          accountId: row.id,
          platform: row.platform,
          err: error instanceof Error ? error.message : String(error),
        },
        'account health check failed unexpectedly',
      );
      return undefined;
    }
    if (refusedCodes.has(error.code)) {
      return {
        health: 'needs_reconnect',
        reason: `${publisher.displayName} refused the stored credentials; reconnect the account.`,
      };
    }
    if (inconclusiveCodes.has(error.code)) return undefined;
    return {
      health: 'unreachable',
      reason:
        error.code === 'target_unreachable'
          ? `${publisher.displayName} could not reach the account's target (chat, page or server) at the last check.`
          : `${publisher.displayName} could not be reached at the last check (${error.code.replaceAll('_', ' ')}).`,
    };
  } finally {
    deadline.dispose();
  }
  const expiry = credentialExpiry(credentials);
  if (
    expiry !== undefined &&
    expiry - now <= ctx.config.accountHealth.expiringWithinMs &&
    !hasRefreshToken(credentials)
  ) {
    return {
      health: 'expiring',
      reason: `The connection expires on ${new Date(expiry).toISOString().slice(0, 16).replace('T', ' ')} UTC and could not be renewed; reconnect the account before then.`,
    };
  }
  return { health: 'ok', reason: null };
}

/**
 * Stores a finding and announces a change into a bad state once. A refusal of a shared grant's
 * credentials is every account of the login's: each is marked, and each announces its change.
 */
export async function applyHealth(
  ctx: AppContext,
  accountId: string,
  finding: HealthFinding,
  options: { checkedAt?: Date; effects?: HealthEffects } = {},
): Promise<HealthChange | undefined> {
  const change = await recordFinding(ctx, accountId, finding, options);
  const grantId = change?.row.grantId;
  if (grantId && finding.health === 'needs_reconnect') {
    for (const sibling of await accountsOfGrant(ctx, grantId)) {
      if (sibling.id !== accountId) await recordFinding(ctx, sibling.id, finding, options);
    }
  }
  return change;
}

async function recordFinding(
  ctx: AppContext,
  accountId: string,
  finding: HealthFinding,
  options: { checkedAt?: Date; effects?: HealthEffects },
): Promise<HealthChange | undefined> {
  const change = await recordHealth(ctx, accountId, {
    health: finding.health,
    reason: finding.reason,
    ...(options.checkedAt ? { checkedAt: options.checkedAt } : {}),
    // needs_reconnect stops the account from being swept and shows the reconnect button.
    ...(finding.health === 'needs_reconnect' ? { status: 'needs_reconnect' as const } : {}),
  });
  if (!change || change.previous === finding.health) return change;
  await announce(ctx, change, options.effects ?? defaultEffects);
  return change;
}

/**
 * Marks an account the platform refused (a publish or a renewal found out), with every account
 * sharing its grant. A publish may have used the grant's credentials just before another account
 * of the login rotated them (a rotating refresh token is single use): unless the caller read the
 * credentials right before (`current`), a grant's refusal is confirmed with the credentials now
 * stored before the whole login is marked.
 */
export async function markAccountRefused(
  ctx: AppContext,
  accountId: string,
  platform: string,
  options: { current?: boolean } = {},
): Promise<void> {
  const displayName = ctx.publishers.get(platform)?.displayName ?? 'The platform';
  const row = await findAccountById(ctx, accountId);
  if (!row) return;
  if (row.grantId && !options.current) {
    const recheck = await checkAccount(ctx, row);
    if (recheck && recheck.health !== 'needs_reconnect') {
      ctx.logger.info(
        { accountId, platform },
        'a refusal of stale shared credentials: the login works with the ones stored now',
      );
      return;
    }
  }
  await applyHealth(ctx, accountId, {
    health: 'needs_reconnect',
    reason: `${displayName} refused the stored credentials; reconnect the account.`,
  });
}

export interface HealthSweep {
  checked: number;
  changed: number;
}

/**
 * One sweep: claims accounts due for a check in batches and checks each batch with at most
 * ACCOUNT_HEALTH_CONCURRENCY at once, until none is due or `shouldStop` says so.
 */
export async function runHealthChecks(
  ctx: AppContext,
  options: { now?: () => number; effects?: HealthEffects; shouldStop?: () => boolean } = {},
): Promise<HealthSweep> {
  const clock = options.now ?? Date.now;
  const { intervalMs, concurrency } = ctx.config.accountHealth;
  const sweep: HealthSweep = { checked: 0, changed: 0 };
  const seen = new Set<string>();
  while (!options.shouldStop?.()) {
    const now = clock();
    const batch = (
      await claimAccountsDueForCheck(ctx, {
        limit: concurrency * 4,
        staleBefore: new Date(now - intervalMs),
        leaseUntil: new Date(now + leaseMs),
        now: new Date(now),
      })
    ).filter((row) => !seen.has(row.id)); // skipped ones stay due: check them at the next sweep
    if (batch.length === 0) break;
    for (const row of batch) seen.add(row.id);
    const queue = [...batch];
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const finding = await checkAccount(ctx, row, clock());
        if (!finding) {
          await releaseHealthLease(ctx, row.id, row.healthCheckedAt);
          continue;
        }
        sweep.checked++;
        const change = await applyHealth(ctx, row.id, finding, {
          checkedAt: new Date(clock()),
          ...(options.effects ? { effects: options.effects } : {}),
        });
        if (change && change.previous !== finding.health) sweep.changed++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
  }
  return sweep;
}

const holder = globalThis as typeof globalThis & { __postwaveHealthMonitor?: NodeJS.Timeout };

/**
 * Runs sweeps in this process, like the dispatcher: at most every minute (sooner with a short
 * interval), one sweep at a time. Accounts are claimed with a lease, so every instance can run it.
 */
export function startAccountHealthMonitor(ctx: AppContext): void {
  const { intervalMs } = ctx.config.accountHealth;
  if (holder.__postwaveHealthMonitor) return;
  if (intervalMs === 0) {
    ctx.logger.info('account health checks are off (ACCOUNT_HEALTH_INTERVAL_MS=0)');
    return;
  }
  holder.__postwaveHealthMonitor = startIntervalSweep({
    intervalMs: Math.min(intervalMs, 60_000),
    runAtStart: true,
    sweep: async () => {
      const sweep = await runHealthChecks(ctx);
      if (sweep.checked > 0) ctx.logger.debug(sweep, 'account health sweep');
    },
    onError: (error) =>
      ctx.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'account health sweep failed',
      ),
  });
}
