import type { PreparedPost, TargetIntent, TargetOutcome } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import { emitPostOutcome } from '#server/webhooks/post-events.ts';
import { finalizeOptions } from './finalize-options.ts';
import { preparePost } from './prepare.ts';
import {
  flagReconnect,
  type PublishMode,
  type PublishRun,
  progressOf,
  publishTargets,
  recordInvalidTargets,
  type TargetState,
} from './publish-targets.ts';
import { mailRecycleStops } from './recycle-notice.ts';
import { finalizePosts, type PostRow } from './repository.ts';
import {
  type ExistingTarget,
  markTargetsUnknown,
  resumeTargets,
  targetStates,
  targetsOf,
} from './targets-repository.ts';

export interface PublishOutcome {
  status: PostRow['status'] | 'lost_lease';
}

const outcomeUnknown = {
  code: 'outcome_unknown',
  message:
    'Publishing was interrupted before its outcome was recorded, and this platform offers no way to check or to resend safely: it may or may not have been posted. Check the account, then mark it posted or post it again.',
  retryable: false,
};

/**
 * Publishes a post whose lease `owner` holds. Each target is claimed in the database before it is
 * sent (a guarded upsert: only a missing or failed target can be claimed), so no two publishers
 * ever send the same target, and each result is written as soon as that target finishes.
 */
export function publishLeasedPost(
  ctx: AppContext,
  post: PostRow & { targets?: ExistingTarget[] },
  owner: string,
  mode: PublishMode,
  preparedAhead?: PreparedPost,
  run: PublishRun = {},
): Promise<PublishOutcome> {
  // Graceful shutdown waits for every publish in flight.
  return trackWork(publishLeased(ctx, post, owner, mode, preparedAhead, run));
}

async function publishLeased(
  ctx: AppContext,
  post: PostRow & { targets?: ExistingTarget[] },
  owner: string,
  mode: PublishMode,
  preparedAhead: PreparedPost | undefined,
  run: PublishRun,
): Promise<PublishOutcome> {
  const existing = post.targets ?? (await targetStates(ctx, post.id));
  const state: TargetState = new Map(existing.map((t) => [t.accountId, t]));

  // An intent left `publishing` by a previous lease holder never reported back. Where the
  // platform dedupes a resend or lets us find the earlier post, it is resumed (claimed again with
  // its stored handle); elsewhere its outcome is unknown and only a person can decide.
  const abandoned = existing.filter((t) => t.status === 'publishing' && t.claimOwner !== owner);
  const resumable: ExistingTarget[] = [];
  const lost: string[] = [];
  for (const t of abandoned) {
    if ((ctx.publishers.get(t.platform)?.dedupe ?? 'none') === 'none') lost.push(t.accountId);
    else resumable.push(t);
  }
  if (lost.length) {
    await markTargetsUnknown(ctx, post.id, lost, owner, outcomeUnknown);
    for (const accountId of lost) state.set(accountId, { status: 'unknown', error: outcomeUnknown });
  }

  const skip = new Set([
    ...existing.filter((t) => t.status === 'posted' || t.status === 'unknown').map((t) => t.accountId),
    ...abandoned.map((t) => t.accountId),
  ]);
  // Resumed intents are taken over in one statement (a crash's rare path), with their stored handles.
  const taken = await resumeTargets(
    ctx,
    post.id,
    resumable.map((t) => ({ accountId: t.accountId, previousOwner: t.claimOwner ?? '' })),
    owner,
  );
  const resumed = new Map<string, TargetIntent>();
  for (const t of resumable) {
    if (!taken.has(t.accountId)) {
      state.delete(t.accountId);
      continue;
    }
    const handle = taken.get(t.accountId);
    resumed.set(t.accountId, {
      resumed: { since: new Date(Number(t.updatedAt)) },
      ...(handle ? { dedupeHandle: handle } : {}),
      ...progressOf(t),
    });
    skip.delete(t.accountId);
  }
  const remaining = post.accountIds.filter((id) => !skip.has(id));
  let deferred: TargetOutcome | undefined;
  if (remaining.length > 0) {
    const prepared =
      preparedAhead ??
      (await preparePost(
        ctx,
        post.workspaceId,
        {
          message: post.message,
          accountIds: remaining,
          media: post.media,
          accountOptions: post.accountOptions,
          overrides: post.overrides,
          thread: post.thread,
        },
        run.accounts,
      ));
    if (!prepared.targets) {
      await recordInvalidTargets(ctx, post.id, owner, prepared.validation, state);
    } else {
      const progress = new Map(existing.map((t) => [t.accountId, progressOf(t)]));
      deferred = await publishTargets(ctx, post, owner, prepared, mode, state, run, resumed, progress);
    }
  }
  // The dispatcher's worker may take its next post while this one's finalization is written.
  if (mode.kind === 'dispatch') mode.onPlatformCallsDone?.();
  return finalize(ctx, post, owner, mode, state, deferred, run);
}

/** Decides the post's status from its targets and gives up the lease. */
async function finalize(
  ctx: AppContext,
  post: PostRow,
  owner: string,
  mode: PublishMode,
  state: TargetState,
  deferred: TargetOutcome | undefined,
  run: PublishRun,
): Promise<PublishOutcome> {
  if (post.accountIds.some((id) => !state.has(id))) {
    // Some target's outcome is not known here (held elsewhere): read the recorded truth.
    for (const row of await targetsOf(ctx, post.id)) state.set(row.accountId, row);
  }
  const outcomes = post.accountIds.map((id) => state.get(id));
  const now = new Date();
  let status: PostRow['status'];
  let nextAttemptAt: Date | null = null;
  if (outcomes.every((t) => t?.status === 'posted')) {
    status = 'posted';
  } else if (
    outcomes.some(
      (t) => t?.status === 'unknown' || (t?.status === 'failed' && t.error?.retryable === false),
    ) ||
    mode.kind === 'now'
  ) {
    status = 'failed';
  } else if (post.attempts >= mode.maxAttempts) {
    status = 'failed';
  } else {
    status = 'scheduled';
    const backoff = mode.retryBaseMs * 2 ** Math.max(0, post.attempts - 1);
    nextAttemptAt = new Date(now.getTime() + backoff);
  }
  // Dispatch shares the statement with the other posts it finishes at once; publish-now runs it alone.
  const finalization = { postId: post.id, owner, status, nextAttemptAt, deferred };
  const updated = run.batches
    ? await run.batches.finalizations.add(finalization)
    : (await finalizePosts(ctx, [finalization], finalizeOptions(ctx)))[0];
  if (deferred) await flagReconnect(ctx, deferred);
  if (updated?.status === 'posted' || updated?.status === 'failed') {
    await emitPostOutcome(ctx, post.workspaceId, post.id, updated.subscribed);
    await mailRecycleStops(ctx, post);
  }
  return { status: updated?.status ?? 'lost_lease' };
}
