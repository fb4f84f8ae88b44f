import {
  benefitsFromStaging,
  type PreparedPost,
  stagedContentKey,
  stageTarget,
  type TargetIntent,
} from '@postwave/shared';
import { accountLookup, saveRefreshedCredentials } from '#server/accounts/service.ts';
import type { AppContext } from '#server/context.ts';
import { ownMediaResolver } from '#server/media/service.ts';
import { postingServiceFor } from '#server/posts/publishing.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { discardPlatforms, discardSoon } from './discard.ts';
import {
  clearStagings,
  recordStagings,
  releaseStagings,
  type StagingClaim,
  type StagingResult,
  type StagingView,
  stagedHandles,
  stagingsOf,
} from './repository.ts';
import type { TargetStaging } from './schema.ts';

/** Platforms whose publisher can stage: the only ones a staging claim looks at. */
export function stagingPlatforms(ctx: AppContext): string[] {
  return ctx.publishers.list().flatMap((p) => (typeof p.stage === 'function' ? [p.id] : []));
}

const hasVideo = (media: readonly { contentType: string }[]) =>
  media.some((m) => m.contentType.startsWith('video/'));

/**
 * Stages the claimed targets of one post: prepares it as the due-time publish will (the same
 * validation, options and media), uploads ahead through `Publisher.stage`, and records each
 * handle and its expiry, or `stage_failed` (the due-time publish then uploads as usual).
 */
export async function stageClaimedPost(
  ctx: AppContext,
  claim: StagingClaim,
  owner: string,
  signal: AbortSignal,
): Promise<StagingResult[]> {
  const { post, targets } = claim;
  const service = postingServiceFor(ctx, post.userId);
  let results: StagingResult[];
  try {
    const prepared = await service.prepare(
      {
        message: post.message,
        accountIds: targets.map((t) => t.accountId),
        media: post.media,
        accountOptions: post.accountOptions,
      },
      accountLookup(ctx, post.userId),
    );
    results = await stagePrepared(ctx, claim, prepared, signal);
  } catch (error) {
    // Storage or the database failed us: the due-time publish will try as usual.
    ctx.logger.warn({ err: error, postId: post.id }, 'staging a post failed');
    const failure = {
      code: 'internal',
      message: 'Staging failed; the post uploads at its due time',
      retryable: true,
    };
    results = targets.map((t) => ({
      postId: post.id,
      accountId: t.accountId,
      platform: t.platform,
      status: 'stage_failed',
      handle: null,
      expiresAt: null,
      contentKey: '',
      error: failure,
    }));
  }
  // Cut off (a process stopping, a cron call's budget spent): what was staged is kept, the rest is
  // handed back so a later pass stages it, rather than recorded as failed.
  const cutOff = signal.aborted;
  if (cutOff) results = results.filter((r) => r.status === 'staged');
  // An upload whose row was cleared meanwhile (an edit, a delete) is queued for discarding here.
  const discards = await recordStagings(ctx, owner, post.userId, results, discardPlatforms(ctx));
  discardSoon(ctx, discards);
  if (cutOff) await releaseStagings(ctx, owner, post.id);
  return results;
}

async function stagePrepared(
  ctx: AppContext,
  { post, targets }: StagingClaim,
  prepared: PreparedPost,
  signal: AbortSignal,
): Promise<StagingResult[]> {
  const platformOf = new Map(targets.map((t) => [t.accountId, t.platform]));
  if (!prepared.targets) {
    // Publishing will fail the same way and say so; staging only notes why it did nothing.
    return prepared.validation.results.map((r) => ({
      postId: post.id,
      accountId: r.accountId,
      platform: platformOf.get(r.accountId) ?? '',
      status: 'stage_failed',
      handle: null,
      expiresAt: null,
      contentKey: '',
      error: {
        code: r.errors[0]?.code ?? 'validation_failed',
        message: r.errors[0]?.message ?? 'Another target of the post is not valid',
        retryable: false,
      },
    }));
  }
  const resolveOwnMedia = ownMediaResolver(ctx, post.userId);
  return Promise.all(
    prepared.targets.map(async (target): Promise<StagingResult> => {
      const contentKey = stagedContentKey(prepared.message, prepared.media, target.options);
      const base = {
        postId: post.id,
        accountId: target.account.id,
        platform: target.account.platform,
        contentKey,
      };
      if (!benefitsFromStaging(target.publisher, prepared.media)) {
        return {
          ...base,
          status: 'stage_failed',
          handle: null,
          expiresAt: null,
          error: { code: 'not_supported', message: 'Nothing to stage for this platform', retryable: false },
        };
      }
      const outcome = await stageTarget(prepared, target, {
        idempotencyKey: post.id,
        signal,
        logger: ctx.logger,
        resolveOwnMedia,
        accountHostFetch: ctx.userUrlFetch,
        onCredentialsRefreshed: (accountId, credentials) =>
          saveRefreshedCredentials(ctx, accountId, credentials),
      });
      if ('staged' in outcome) {
        return {
          ...base,
          status: 'staged',
          handle: outcome.staged.handle,
          expiresAt: outcome.staged.expiresAt,
          error: null,
        };
      }
      return { ...base, status: 'stage_failed', handle: null, expiresAt: null, error: outcome.error };
    }),
  );
}

/**
 * Adds each target's staged handle to its publish intent, where one is stored, unexpired, and was
 * made from exactly the content being published. Posts without video cost nothing (no query).
 */
export async function addStagedHandles(
  ctx: AppContext,
  post: Pick<PostRow, 'id' | 'media'>,
  prepared: PreparedPost,
  intents: Map<string, TargetIntent>,
): Promise<void> {
  if (!hasVideo(post.media) || !prepared.targets) return;
  const handles = await stagedHandles(ctx, post.id);
  if (handles.length === 0) return;
  const byAccount = new Map(handles.map((h) => [h.accountId, h]));
  for (const target of prepared.targets) {
    const staged = byAccount.get(target.account.id);
    const intent = intents.get(target.account.id);
    if (!staged || !intent) continue;
    if (staged.contentKey !== stagedContentKey(prepared.message, prepared.media, target.options)) continue;
    intents.set(target.account.id, { ...intent, staged: staged.handle });
  }
}

export function toTargetStaging(view: StagingView): TargetStaging {
  return {
    accountId: view.accountId,
    platform: view.platform,
    status: view.status,
    ...(view.expiresAt ? { expiresAt: view.expiresAt.toISOString() } : {}),
    ...(view.error ? { error: view.error } : {}),
  };
}

/** The staging state of posts by id, as the Post resource shows it. */
export async function stagingByPost(
  ctx: AppContext,
  postIds: readonly string[],
): Promise<Map<string, TargetStaging[]>> {
  const views = await stagingsOf(ctx, postIds);
  return new Map([...views].map(([id, list]) => [id, list.map(toTargetStaging)]));
}

/** A minute for the final call after the due time: a handle must outlive it. */
const finalCallMarginMs = 60_000;

/**
 * Keeps a post's staging in step with an edit: new content, accounts, or a post no longer
 * scheduled forget every staged upload; a reschedule forgets those the platform drops before the
 * new due time (the post is staged again once it comes within the lead).
 */
export async function forgetStaging(ctx: AppContext, before: PostRow, after: PostRow): Promise<void> {
  const sameContent =
    before.message === after.message &&
    JSON.stringify(before.media) === JSON.stringify(after.media) &&
    JSON.stringify(before.accountIds) === JSON.stringify(after.accountIds) &&
    JSON.stringify(before.accountOptions) === JSON.stringify(after.accountOptions);
  const platforms = discardPlatforms(ctx);
  if (!sameContent || after.status !== 'scheduled') {
    discardSoon(ctx, await clearStagings(ctx, after.id, platforms));
    return;
  }
  const due = after.nextAttemptAt ?? after.scheduledAt;
  const was = before.nextAttemptAt ?? before.scheduledAt;
  if (due && due.getTime() !== was?.getTime())
    discardSoon(
      ctx,
      await clearStagings(ctx, after.id, platforms, new Date(due.getTime() + finalCallMarginMs)),
    );
}
