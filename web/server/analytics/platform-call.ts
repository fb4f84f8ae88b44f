import {
  type AnyPublisher,
  isPlatformError,
  type LimitRequest,
  type PlatformAccount,
  type PlatformCallContext,
  withDeadline,
} from '@postwave/shared';
import { saveRefreshedCredentials } from '#server/accounts/credentials.ts';
import { markAccountRefused } from '#server/accounts/health.ts';
import type { AppContext } from '#server/context.ts';

/*
 * How collection calls a platform (docs/analytics.md#rate-limits): through the limiter publishing
 * uses, under its own scope, so reading figures never starves publishing of its slots and the
 * figures share the limits' state across instances on PostgreSQL. Each credential (the publisher's
 * `concurrencyKey`, else the account) gets `PUBLISH_RATE_<PLATFORM>_ANALYTICS` calls per window:
 * 60 a minute unless that variable says otherwise (`off`: no rate).
 */

const defaultRate = { limit: 60, windowMs: 60_000 };
const callTimeoutMs = 30_000;

export function analyticsRates(
  ctx: AppContext,
  publisher: AnyPublisher,
  account: PlatformAccount,
): LimitRequest[] {
  const override = ctx.config.publishRates.get(`${publisher.id}:analytics`);
  if (override === null) return [];
  const rate = override ?? defaultRate;
  const credential = publisher.concurrencyKey?.(account) ?? account.id;
  return [
    { key: `rate/${publisher.id}/analytics/${credential}`, limit: rate.limit, windowMs: rate.windowMs },
  ];
}

/**
 * Runs one platform call of collection for `account` under the analytics scope of the limiter,
 * with a deadline; renewed credentials are stored, and a refused token marks the account
 * `needs_reconnect` as a refused publish does (then rethrown for the caller to postpone).
 */
export async function callPlatform<T>(
  ctx: AppContext,
  publisher: AnyPublisher,
  account: PlatformAccount,
  call: (context: PlatformCallContext) => Promise<T>,
): Promise<T> {
  return ctx.limiter.run(
    `${publisher.id}/analytics`,
    analyticsConcurrency(ctx, publisher),
    () => callWithDeadline(ctx, account, call),
    undefined,
    analyticsRates(ctx, publisher, account),
  );
}

/** Reads in flight per platform: as many as publishes may be, or as ANALYTICS_CONCURRENCY asks. */
function analyticsConcurrency(ctx: AppContext, publisher: AnyPublisher): number {
  return Math.max(publisher.concurrency, ctx.config.analytics.concurrency);
}

/**
 * Runs `task` holding one of the platform's analytics slots (the limit `callPlatform` applies per
 * call), for a collector that makes many calls one after another: the slot is acquired and given
 * back once, not per call (two round trips to the shared limits on PostgreSQL each time). Calls
 * made inside go through `callInSlot`, which still takes each credential's rate per call.
 */
export function withAnalyticsSlot<T>(
  ctx: AppContext,
  publisher: AnyPublisher,
  task: () => Promise<T>,
): Promise<T> {
  return ctx.limiter.run(`${publisher.id}/analytics`, analyticsConcurrency(ctx, publisher), task);
}

/** `callPlatform` for a caller inside `withAnalyticsSlot`: only the credential's rate, if any, is asked. */
export async function callInSlot<T>(
  ctx: AppContext,
  publisher: AnyPublisher,
  account: PlatformAccount,
  call: (context: PlatformCallContext) => Promise<T>,
): Promise<T> {
  const rates = analyticsRates(ctx, publisher, account);
  if (rates.length === 0) return callWithDeadline(ctx, account, call);
  // The rate keys alone: a slot of its own scope so large it never holds a call back (the limits'
  // table keeps limits as 32-bit integers).
  return ctx.limiter.run(
    `${publisher.id}/analytics-rate`,
    1_000_000,
    () => callWithDeadline(ctx, account, call),
    undefined,
    rates,
  );
}

async function callWithDeadline<T>(
  ctx: AppContext,
  account: PlatformAccount,
  call: (context: PlatformCallContext) => Promise<T>,
): Promise<T> {
  const deadline = withDeadline(undefined, callTimeoutMs);
  try {
    return await call({
      signal: deadline.signal,
      logger: ctx.logger,
      accountHostFetch: ctx.userUrlFetch,
      onCredentialsRefreshed: (fresh) => saveRefreshedCredentials(ctx, account.id, fresh),
    });
  } catch (error) {
    if (isRefusal(error)) await markAccountRefused(ctx, account.id, account.platform);
    throw error;
  } finally {
    deadline.dispose();
  }
}

export function isRefusal(error: unknown): boolean {
  return isPlatformError(error) && (error.code === 'needs_reconnect' || error.code === 'credentials_invalid');
}

/** When to try again after a failed call: a rate limit's own wait, a refusal much later, else an hour. */
export function retryDelayMs(error: unknown): number {
  if (isRefusal(error)) return 24 * 3_600_000;
  if (isPlatformError(error) && error.code === 'rate_limited')
    return Math.max(60_000, Math.min(error.retryAfterMs ?? 15 * 60_000, 24 * 3_600_000));
  return 3_600_000;
}
