import { runWithDeadline, toPlatformError } from '@postwave/shared';
import { saveRefreshedCredentials } from '#server/accounts/credentials.ts';
import { accountLookup } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import {
  claimStagedDiscards,
  earliestDiscardAt,
  removeStagedDiscard,
  retryStagedDiscard,
  type StagedDiscard,
} from './discard-repository.ts';

/*
 * Discarding staged uploads that will not be published (`Publisher.discardStaged`): a private
 * YouTube video or an unpublished Facebook video whose post was edited, deleted, moved back to
 * draft, or whose staging was dropped. Best effort and never in the way of the edit: the edit
 * queues the upload (`staged_discards`, in the statement that forgets the staging) and starts a
 * discard in the background; one that fails is retried by the staging pass's sweep (and by cron
 * calls), with backoff, until it works or `maxAttempts` is reached.
 */

/** Tries per upload before giving up (backoff 1 min, doubling, at most an hour: about 4 h in all). */
const maxAttempts = 10;
const firstRetryMs = 60_000;
const longestRetryMs = 60 * 60_000;
/** One platform call; a hanging platform must not hold a sweep. */
const discardTimeoutMs = 30_000;

/** Platforms whose publisher can discard a staged upload (the others' uploads expire by themselves). */
export function discardPlatforms(ctx: AppContext): string[] {
  return ctx.publishers.list().flatMap((p) => (typeof p.discardStaged === 'function' ? [p.id] : []));
}

export interface DiscardSweep {
  discarded: number;
  retrying: number;
  givenUp: number;
}

/** Discards due uploads (or only `ids`), up to `limit` at once. Never throws for a platform's failure. */
export async function sweepStagedDiscards(
  ctx: AppContext,
  options: { limit?: number; ids?: readonly string[]; signal?: AbortSignal } = {},
): Promise<DiscardSweep> {
  const sweep: DiscardSweep = { discarded: 0, retrying: 0, givenUp: 0 };
  const claims = await claimStagedDiscards(ctx, {
    limit: options.limit ?? 20,
    leaseMs: ctx.config.dispatcher.leaseMs,
    ids: options.ids,
  });
  await Promise.all(
    claims.map(async (claim) => {
      sweep[await discardOne(ctx, claim, options.signal)]++;
    }),
  );
  if (claims.length > 0) ctx.logger.info({ ...sweep }, 'staged uploads discarded');
  return sweep;
}

async function discardOne(
  ctx: AppContext,
  claim: StagedDiscard,
  signal: AbortSignal | undefined,
): Promise<keyof DiscardSweep> {
  const log = { postId: claim.postId, accountId: claim.accountId, platform: claim.platform };
  try {
    const publisher = ctx.publishers.get(claim.platform);
    const account = await accountLookup(ctx, claim.workspaceId)(claim.accountId);
    if (!publisher?.discardStaged || !account) {
      // The account was removed (its credentials with it), or the platform no longer discards.
      ctx.logger.warn(log, 'a staged upload cannot be discarded any more; it stays on the platform');
      await removeStagedDiscard(ctx, claim.id);
      return 'givenUp';
    }
    await runWithDeadline(signal, discardTimeoutMs, (within) =>
      publisher.discardStaged!(claim.handle, account, {
        signal: within,
        logger: ctx.logger,
        onCredentialsRefreshed: (credentials) => saveRefreshedCredentials(ctx, account.id, credentials),
        accountHostFetch: ctx.userUrlFetch,
      }),
    );
    await removeStagedDiscard(ctx, claim.id);
    return 'discarded';
  } catch (thrown) {
    const error = toPlatformError(thrown).toJSON();
    if (claim.attempts >= maxAttempts) {
      ctx.logger.warn(
        { ...log, code: error.code },
        'gave up discarding a staged upload; it stays on the platform',
      );
      await removeStagedDiscard(ctx, claim.id).catch(() => undefined);
      return 'givenUp';
    }
    const delay = Math.min(longestRetryMs, firstRetryMs * 2 ** (claim.attempts - 1));
    ctx.logger.warn({ ...log, code: error.code }, 'discarding a staged upload failed; retrying later');
    // If even this write fails, the claim's lease runs out and the upload is due again anyway.
    await retryStagedDiscard(ctx, claim.id, new Date(Date.now() + delay), error).catch(() => undefined);
    return 'retrying';
  }
}

/**
 * Starts discarding just-queued uploads in the background (the edit does not wait for the
 * platform); graceful shutdown waits for it. A failure is left to the sweep.
 */
export function discardSoon(ctx: AppContext, ids: readonly string[]): void {
  if (ids.length === 0) return;
  void trackWork(
    sweepStagedDiscards(ctx, { ids, limit: ids.length })
      .then((sweep) => {
        if (sweep.retrying > 0) sweepSoon(ctx);
      })
      .catch((error: unknown) => {
        sweepSoon(ctx);
        ctx.logger.warn({ err: error }, 'could not discard staged uploads now; the sweep retries');
      }),
  );
}

/**
 * When each database's next discard is due, as this process last read it: the staging pass runs
 * its loop on every announcement, and most iterations have no discard to look at. Another
 * instance's queued uploads are discarded by that instance at once; only its retries need this
 * one's sweep, so the cached time is re-read at least every `recheckMs`.
 */
const nextSweep = new WeakMap<object, number>();
const recheckMs = 60_000;

/**
 * One sweep of the discards that are due, for the staging pass: answers when the next one is due
 * (epoch ms; undefined: none known). Costs no query until then. Never throws.
 */
export async function sweepDueDiscards(ctx: AppContext, signal?: AbortSignal): Promise<number | undefined> {
  const cached = nextSweep.get(ctx.db);
  if (cached !== undefined && Date.now() < cached) return cached;
  try {
    if (!signal?.aborted) await sweepStagedDiscards(ctx, signal ? { signal } : {});
    const next = (await earliestDiscardAt(ctx))?.getTime();
    nextSweep.set(ctx.db, Math.min(next ?? Number.POSITIVE_INFINITY, Date.now() + recheckMs));
    return next;
  } catch (error) {
    ctx.logger.warn({ err: error }, 'sweeping staged uploads to discard failed');
    return undefined;
  }
}

/** Something was queued or failed in this process: the next sweep looks at once. */
function sweepSoon(ctx: AppContext): void {
  nextSweep.delete(ctx.db);
}
