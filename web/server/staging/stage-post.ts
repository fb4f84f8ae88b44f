import { benefitsFromStaging, type PreparedPost, stagedContentKey, stageTarget } from '@postwave/shared';
import { saveRefreshedCredentials } from '#server/accounts/credentials.ts';
import type { AppContext } from '#server/context.ts';
import { ownMediaResolver } from '#server/media/service.ts';
import { preparePost } from '#server/posts/prepare.ts';
import { discardPlatforms, discardSoon } from './discard.ts';
import { recordStagings, releaseStagings, type StagingClaim, type StagingResult } from './repository.ts';

/** Platforms whose publisher can stage: the only ones a staging claim looks at. */
export function stagingPlatforms(ctx: AppContext): string[] {
  return ctx.publishers.list().flatMap((p) => (typeof p.stage === 'function' ? [p.id] : []));
}

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
  let results: StagingResult[];
  try {
    const prepared = await preparePost(ctx, post.workspaceId, {
      message: post.message,
      accountIds: targets.map((t) => t.accountId),
      media: post.media,
      accountOptions: post.accountOptions,
    });
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
  const discards = await recordStagings(ctx, owner, post.workspaceId, results, discardPlatforms(ctx));
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
  const resolveOwnMedia = ownMediaResolver(ctx, post.workspaceId);
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
