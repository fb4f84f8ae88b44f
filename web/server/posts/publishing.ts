import {
  type MediaReference,
  type NormalizedOverride,
  type NormalizedThreadPart,
  PlatformError,
  PostingService,
  type PreparedPost,
  type ProblemIssue,
  type PublishHooks,
  type TargetIntent,
  type TargetOutcome,
  type ValidationResponse,
} from '@postwave/shared';
import { markAccountRefused } from '#server/accounts/health.ts';
import { optionChoicesLoader } from '#server/accounts/option-choices.ts';
import { type AccountCache, accountLookup, saveRefreshedCredentials } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import type { StoredPart, StoredStep } from '#server/db/schema.ts';
import type { MicroBatcher } from '#server/dispatch/batches.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import { ownMediaResolver, userStorage } from '#server/media/service.ts';
import { addStagedHandles } from '#server/staging/service.ts';
import { emitPostOutcome } from '#server/webhooks/post-events.ts';
import {
  type ClaimAnswer,
  claimTargets,
  type ExistingTarget,
  finalizePosts,
  markTargetsUnknown,
  type PostFinalization,
  type PostRow,
  recordFailedTargets,
  recordResults,
  recordStep,
  resumeTargets,
  type TargetClaim,
  type TargetRow,
  targetStates,
  targetsOf,
} from './repository.ts';

/** The SDK's posting service as one user sees it: their accounts, their media. */
export function postingServiceFor(ctx: AppContext, userId: string): PostingService {
  return new PostingService({
    publishers: ctx.publishers,
    storage: userStorage(ctx, userId),
    limiter: ctx.limiter,
    logger: ctx.logger,
    resolveOwnMedia: ownMediaResolver(ctx, userId),
    // Scheduler users choose their accounts' hosts: those are reached through the SSRF-safe fetch.
    accountHostFetch: ctx.userUrlFetch,
    loadOptionChoices: optionChoicesLoader(ctx),
  });
}

export interface PostContentInput {
  message: string;
  accountIds: readonly string[];
  media: readonly MediaReference[];
  accountOptions: Record<string, Record<string, unknown>>;
  overrides?: Readonly<Record<string, NormalizedOverride>>;
  thread?: readonly NormalizedThreadPart[];
}

export async function preparePost(
  ctx: AppContext,
  userId: string,
  input: PostContentInput,
): Promise<PreparedPost> {
  return postingServiceFor(ctx, userId).prepare(input, accountLookup(ctx, userId));
}

/** Per-account validation errors flattened into problem issues. */
export function validationIssues(validation: ValidationResponse): ProblemIssue[] {
  return validation.results.flatMap((r) =>
    r.errors.map((e) => ({
      accountId: r.accountId,
      code: e.code,
      message: e.message,
      ...(e.path ? { path: e.path } : {}),
    })),
  );
}

export type PublishMode =
  /** Publish now: whatever fails is final; the caller gets the finished post. */
  | { kind: 'now' }
  /** Dispatch: retryable failures go back to `scheduled` with backoff until attempts run out. */
  | { kind: 'dispatch'; maxAttempts: number; retryBaseMs: number; deadline: number };

export interface PublishOutcome {
  status: PostRow['status'] | 'lost_lease';
}

const outcomeUnknown = {
  code: 'outcome_unknown',
  message:
    'Publishing was interrupted before its outcome was recorded, and this platform offers no way to check or to resend safely: it may or may not have been posted. Check the account, then mark it posted or post it again.',
  retryable: false,
};

/** What is known about each target of a post while it is being published. */
type TargetState = Map<string, Pick<TargetRow, 'status' | 'error'>>;

export interface PublishRun {
  /** Accounts looked up during one dispatch run, shared by its posts (many posts use few accounts). */
  accounts?: AccountCache;
  /** Dispatch shares statements between the posts it publishes at once. */
  batches?: {
    claims: MicroBatcher<TargetClaim, ClaimAnswer>;
    finalizations: MicroBatcher<PostFinalization, PostRow['status'] | null>;
  };
}

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
      (await postingServiceFor(ctx, post.userId).prepare(
        {
          message: post.message,
          accountIds: remaining,
          media: post.media,
          accountOptions: post.accountOptions,
          overrides: post.overrides,
          thread: post.thread,
        },
        accountLookup(ctx, post.userId, run.accounts),
      ));
    if (!prepared.targets) {
      await recordInvalidTargets(ctx, post.id, owner, prepared.validation, state);
    } else {
      const progress = new Map(existing.map((t) => [t.accountId, progressOf(t)]));
      deferred = await publishTargets(ctx, post, owner, prepared, mode, state, run, resumed, progress);
    }
  }
  return finalize(ctx, post, owner, mode, state, deferred, run);
}

async function publishTargets(
  ctx: AppContext,
  post: PostRow,
  owner: string,
  prepared: PreparedPost,
  mode: PublishMode,
  state: TargetState,
  run: PublishRun,
  resumed: ReadonlyMap<string, TargetIntent>,
  progress: ReadonlyMap<string, Pick<TargetIntent, 'parts' | 'firstComment'>>,
): Promise<TargetOutcome | undefined> {
  const targets = prepared.targets!;
  const claims: TargetClaim[] = targets
    .filter((t) => !resumed.has(t.account.id))
    .map((t) => ({
      postId: post.id,
      accountId: t.account.id,
      platform: t.account.platform,
      owner,
      dedupeHandle: t.publisher.dedupeHandle?.(`${post.id}:${t.account.id}`) ?? null,
    }));
  const batches = run.batches;
  const won = batches
    ? await Promise.all(claims.map((c) => batches.claims.add(c)))
    : await claimTargets(ctx, claims);
  const intents = new Map<string, TargetIntent>(resumed);
  for (const [i, claim] of claims.entries()) {
    const answer = won[i];
    if (answer)
      intents.set(claim.accountId, {
        ...(answer.dedupeHandle ? { dedupeHandle: answer.dedupeHandle } : {}),
        ...progress.get(claim.accountId),
      });
  }
  await addStagedHandles(ctx, post, prepared, intents);
  const mine = new Set(intents.keys());
  // Targets another publisher holds are not ours to report on: finalize reads them back.
  for (const target of targets) if (!mine.has(target.account.id)) state.delete(target.account.id);
  const service = postingServiceFor(ctx, post.userId);
  const retryPolicy =
    mode.kind === 'dispatch'
      ? { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 5_000, deadline: mode.deadline }
      : undefined;
  const mineTargets = targets.filter((t) => mine.has(t.account.id));
  let outstanding = mineTargets.length;
  // The last result is written together with the post's own update (one round trip less per post).
  let deferred: TargetOutcome | undefined;
  await Promise.all(
    mineTargets.map(async (target) => {
      const [result] = await service.publish(
        { ...prepared, targets: [target] },
        {
          idempotencyKey: post.id,
          intents,
          onStepPosted: stepRecorder(ctx, post.id, owner, intents),
          ...(retryPolicy ? { retryPolicy } : {}),
          onCredentialsRefreshed: (accountId, credentials) =>
            saveRefreshedCredentials(ctx, accountId, credentials),
        },
      );
      state.set(result!.accountId, { status: result!.status, error: result!.error ?? null });
      if (--outstanding === 0) deferred = result;
      else await recordResult(ctx, post.id, owner, result!);
    }),
  );
  return deferred;
}

/** What earlier attempts posted of a target: never sent again, the chain continues after it. */
function progressOf(t: ExistingTarget): Pick<TargetIntent, 'parts' | 'firstComment'> {
  // Only a prefix of posted parts counts: a thread is posted in order.
  const parts = [];
  for (const part of [...(t.parts ?? [])].sort((a, b) => a.index - b.index)) {
    if (part.status !== 'posted' || !part.platformPostId || part.index !== parts.length) break;
    parts.push({
      index: part.index,
      platformPostId: part.platformPostId,
      ...(part.url ? { url: part.url } : {}),
      ...(part.replyRef ? { replyRef: part.replyRef } : {}),
    });
  }
  const comment = t.firstComment;
  return {
    ...(parts.length ? { parts } : {}),
    ...(comment?.status === 'posted' && comment.platformPostId
      ? {
          firstComment: {
            platformPostId: comment.platformPostId,
            ...(comment.url ? { url: comment.url } : {}),
            ...(comment.replyRef ? { replyRef: comment.replyRef } : {}),
          },
        }
      : {}),
  };
}

/**
 * Per-part publish intents: each posted step of a thread (or before the first comment) is written
 * with the next step's dedupe handle before that step is sent, so a crash between them neither
 * loses the posted part nor sends it twice (the next claimer continues after it, or resumes the
 * step in flight as `Publisher.dedupe` allows).
 */
function stepRecorder(
  ctx: AppContext,
  postId: string,
  owner: string,
  intents: ReadonlyMap<string, TargetIntent>,
): NonNullable<PublishHooks['onStepPosted']> {
  const posted = new Map<string, { parts: StoredPart[]; firstComment: StoredStep | null }>();
  return async (accountId, done, next) => {
    let progress = posted.get(accountId);
    if (!progress) {
      const earlier = intents.get(accountId);
      progress = {
        parts: (earlier?.parts ?? []).map((p) => ({ ...p, status: 'posted' as const })),
        firstComment: earlier?.firstComment ? { status: 'posted', ...earlier.firstComment } : null,
      };
      posted.set(accountId, progress);
    }
    if (done.step === 'firstComment') progress.firstComment = { status: 'posted', ...done.result };
    else progress.parts.push({ index: done.step, status: 'posted', ...done.result });
    const kept = await recordStep(ctx, {
      postId,
      accountId,
      owner,
      parts: progress.parts.length ? progress.parts : null,
      firstComment: progress.firstComment,
      dedupeHandle: next.dedupeHandle,
    });
    if (!kept) {
      throw new PlatformError('internal', 'Another publisher took this target over; it continues from here', {
        retryable: false,
      });
    }
    return next.dedupeHandle;
  };
}

async function recordResult(
  ctx: AppContext,
  postId: string,
  owner: string,
  result: TargetOutcome,
): Promise<void> {
  await recordResults(ctx, [{ postId, owner, result }]);
  await flagReconnect(ctx, result);
}

async function flagReconnect(ctx: AppContext, result: TargetOutcome): Promise<void> {
  if (
    result.error &&
    (result.error.code === 'needs_reconnect' || result.error.code === 'credentials_invalid')
  ) {
    await markAccountRefused(ctx, result.accountId, result.platform);
  }
}

/** A post that no longer validates at dispatch time fails as a whole, saying why per target. */
async function recordInvalidTargets(
  ctx: AppContext,
  postId: string,
  owner: string,
  validation: ValidationResponse,
  state: TargetState,
) {
  const now = new Date();
  const rows = validation.results.map((r) => {
    const first = r.errors[0];
    return {
      postId,
      accountId: r.accountId,
      platform: r.platform,
      status: 'failed' as const,
      claimOwner: owner,
      attempts: 0,
      updatedAt: now,
      error: first
        ? { code: first.code, message: first.message, retryable: false }
        : {
            code: 'not_published',
            message: 'Not published because another target failed validation',
            retryable: false,
          },
    };
  });
  await recordFailedTargets(ctx, rows, owner);
  for (const row of rows) state.set(row.accountId, { status: 'failed', error: row.error });
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
    : (await finalizePosts(ctx, [finalization]))[0];
  if (deferred) await flagReconnect(ctx, deferred);
  if (updated === 'posted' || updated === 'failed') await emitPostOutcome(ctx, post.userId, post.id);
  return { status: updated ?? 'lost_lease' };
}
