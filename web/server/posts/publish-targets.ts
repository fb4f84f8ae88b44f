import {
  PlatformError,
  type PreparedPost,
  type PublishHooks,
  type TargetIntent,
  type TargetOutcome,
  type ValidationResponse,
} from '@postwave/shared';
import { saveRefreshedCredentials } from '#server/accounts/credentials.ts';
import { markAccountRefused } from '#server/accounts/health.ts';
import type { AccountCache } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import type { MicroBatcher } from '#server/db/micro-batcher.ts';
import type { StoredPart, StoredStep } from '#server/db/schema.ts';
import { findLinkSettings, type LinkSettingsRow } from '#server/links/repository.ts';
import { linkTrackingHooks } from '#server/links/tracking.ts';
import { addStagedHandles } from '#server/staging/staged-handles.ts';
import { recordRetriedCall } from './history.ts';
import { postingServiceFor } from './prepare.ts';
import type { FinalizedPost, PostFinalization, PostRow } from './repository.ts';
import {
  type ClaimAnswer,
  claimTargets,
  type ExistingTarget,
  recordFailedTargets,
  recordResults,
  recordStep,
  type TargetClaim,
  type TargetRow,
} from './targets-repository.ts';

/*
 * Sending the targets of a leased post: each claimed (a publish intent) before it is sent, each
 * thread step recorded before the next is sent, each result written as soon as it is known.
 * publish-leased.ts decides which targets to send and finishes the post.
 */

export type PublishMode =
  /** Publish now: whatever fails is final; the caller gets the finished post. */
  | { kind: 'now' }
  /** Dispatch: retryable failures go back to `scheduled` with backoff until attempts run out. */
  | {
      kind: 'dispatch';
      maxAttempts: number;
      retryBaseMs: number;
      deadline: number;
      /** Told once the post's platform calls are over and only its finalization is left. */
      onPlatformCallsDone?: () => void;
    };

/** What is known about each target of a post while it is being published. */
export type TargetState = Map<string, Pick<TargetRow, 'status' | 'error'>>;

export interface PublishRun {
  /** Accounts looked up during one dispatch run, shared by its posts (many posts use few accounts). */
  accounts?: AccountCache;
  /**
   * Link settings (UTM, shortener) read during one dispatch run, per workspace: one statement per
   * workspace and run instead of one per post. A change made during a run applies from the next
   * run, as account changes do.
   */
  linkSettings?: Map<string, Promise<LinkSettingsRow | undefined>>;
  /** Dispatch shares statements between the posts it publishes at once. */
  batches?: {
    claims: MicroBatcher<TargetClaim, ClaimAnswer>;
    finalizations: MicroBatcher<PostFinalization, FinalizedPost | null>;
  };
}

/** Claims and sends the prepared targets; answers the last result, left for the post's finalization to write. */
export async function publishTargets(
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
  const service = postingServiceFor(ctx, post.workspaceId);
  const retryPolicy =
    mode.kind === 'dispatch'
      ? { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 5_000, deadline: mode.deadline }
      : undefined;
  const mineTargets = targets.filter((t) => mine.has(t.account.id));
  const linkHooks =
    mineTargets.length > 0 ? await linkTrackingHooks(ctx, post, linkSettingsOf(ctx, run.linkSettings)) : {};
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
          ...linkHooks,
          onStepPosted: stepRecorder(ctx, post.id, owner, intents),
          onCallRetried: (accountId, call) =>
            recordRetriedCall(ctx, {
              postId: post.id,
              userId: post.userId,
              accountId,
              platform: target.account.platform,
              ...(typeof call.step === 'number' && post.thread.length > 0 ? { part: call.step } : {}),
              error: call.error,
            }),
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

function linkSettingsOf(
  ctx: AppContext,
  cache: PublishRun['linkSettings'],
): (workspaceId: string) => Promise<LinkSettingsRow | undefined> {
  if (!cache) return (workspaceId) => findLinkSettings(ctx, workspaceId);
  return (workspaceId) => {
    let found = cache.get(workspaceId);
    if (!found) {
      found = findLinkSettings(ctx, workspaceId);
      // A failed read is not kept: the next post of the run asks again.
      found.catch(() => cache.delete(workspaceId));
      cache.set(workspaceId, found);
    }
    return found;
  };
}

/** What earlier attempts posted of a target: never sent again, the chain continues after it. */
export function progressOf(t: ExistingTarget): Pick<TargetIntent, 'parts' | 'firstComment'> {
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

export async function flagReconnect(ctx: AppContext, result: TargetOutcome): Promise<void> {
  if (
    result.error &&
    (result.error.code === 'needs_reconnect' || result.error.code === 'credentials_invalid')
  ) {
    await markAccountRefused(ctx, result.accountId, result.platform);
  }
}

/** A post that no longer validates at dispatch time fails as a whole, saying why per target. */
export async function recordInvalidTargets(
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
