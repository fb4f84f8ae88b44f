import {
  type MediaReference,
  PostingService,
  type PreparedPost,
  type ProblemIssue,
  type TargetResult,
  type ValidationResponse,
} from '@postwave/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { posts, postTargets } from '../db/schema.ts';
import { accountLookup, markNeedsReconnect, saveRefreshedCredentials } from './accounts.ts';
import { ownMediaResolver, userStorage } from './media.ts';

export type PostRow = typeof posts.$inferSelect;
export type TargetRow = typeof postTargets.$inferSelect;

/** The SDK's posting service as one user sees it: their accounts, their media. */
export function postingServiceFor(ctx: AppContext, userId: string): PostingService {
  return new PostingService({
    publishers: ctx.publishers,
    storage: userStorage(ctx, userId),
    limiter: ctx.limiter,
    logger: ctx.logger,
    resolveOwnMedia: ownMediaResolver(ctx, userId),
  });
}

export interface PostContentInput {
  message: string;
  accountIds: readonly string[];
  media: readonly MediaReference[];
  accountOptions: Record<string, Record<string, unknown>>;
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

/** Targets a stored post still has to publish (never one that already posted). */
export async function postedAccountIds(ctx: AppContext, postId: string): Promise<Set<string>> {
  const rows = await ctx.db
    .select({ accountId: postTargets.accountId })
    .from(postTargets)
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'posted')));
  return new Set(rows.map((r) => r.accountId));
}

export type PublishMode =
  /** Publish now: whatever fails is final; the caller gets the finished post. */
  | { kind: 'now' }
  /** Dispatch: retryable failures go back to `scheduled` with backoff until attempts run out. */
  | { kind: 'dispatch'; maxAttempts: number; retryBaseMs: number; deadline: number };

export interface PublishOutcome {
  status: PostRow['status'] | 'lost_lease';
}

const interrupted = {
  code: 'interrupted',
  message:
    'Publishing was interrupted before its outcome was recorded; it may or may not have been posted. Check the account before retrying.',
  retryable: false,
};

/**
 * Publishes a post whose lease `owner` holds. Each target is claimed in the database before it is
 * sent (a guarded upsert: only a missing or failed target can be claimed), so no two publishers
 * ever send the same target, and each result is written as soon as that target finishes.
 */
export async function publishLeasedPost(
  ctx: AppContext,
  post: PostRow,
  owner: string,
  mode: PublishMode,
  preparedAhead?: PreparedPost,
): Promise<PublishOutcome> {
  // A target left `publishing` by a previous lease holder never reported back: it fails for good
  // here, since only a person who checked the account should resend it.
  const abandoned = await ctx.db
    .update(postTargets)
    .set({ status: 'failed', error: interrupted, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.postId, post.id),
        eq(postTargets.status, 'publishing'),
        sql`${postTargets.claimOwner} <> ${owner}`,
      ),
    )
    .returning({ accountId: postTargets.accountId });

  const skip = new Set([...(await postedAccountIds(ctx, post.id)), ...abandoned.map((a) => a.accountId)]);
  const remaining = post.accountIds.filter((id) => !skip.has(id));
  if (remaining.length > 0) {
    const prepared =
      preparedAhead ??
      (await preparePost(ctx, post.userId, {
        message: post.message,
        accountIds: remaining,
        media: post.media,
        accountOptions: post.accountOptions,
      }));
    if (!prepared.targets) {
      await recordInvalidTargets(ctx, post.id, owner, prepared.validation);
    } else {
      await publishTargets(ctx, post, owner, prepared, mode);
    }
  }
  return finalize(ctx, post, owner, mode);
}

async function publishTargets(
  ctx: AppContext,
  post: PostRow,
  owner: string,
  prepared: PreparedPost,
  mode: PublishMode,
) {
  const targets = prepared.targets!;
  const now = new Date();
  const claimed = await ctx.db
    .insert(postTargets)
    .values(
      targets.map((t) => ({
        postId: post.id,
        accountId: t.account.id,
        platform: t.account.platform,
        status: 'publishing' as const,
        claimOwner: owner,
        attempts: 1,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [postTargets.postId, postTargets.accountId],
      set: {
        status: 'publishing',
        claimOwner: owner,
        error: null,
        attempts: sql`${postTargets.attempts} + 1`,
        updatedAt: now,
      },
      setWhere: sql`${postTargets.status} = 'failed'`,
    })
    .returning({ accountId: postTargets.accountId });
  const mine = new Set(claimed.map((c) => c.accountId));
  const service = postingServiceFor(ctx, post.userId);
  const retryPolicy =
    mode.kind === 'dispatch'
      ? { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 5_000, deadline: mode.deadline }
      : undefined;
  await Promise.all(
    targets
      .filter((t) => mine.has(t.account.id))
      .map(async (target) => {
        const [result] = await service.publish(
          { ...prepared, targets: [target] },
          {
            idempotencyKey: post.id,
            ...(retryPolicy ? { retryPolicy } : {}),
            onCredentialsRefreshed: (accountId, credentials) =>
              saveRefreshedCredentials(ctx, accountId, credentials),
          },
        );
        await recordResult(ctx, post.id, owner, result!);
      }),
  );
}

async function recordResult(
  ctx: AppContext,
  postId: string,
  owner: string,
  result: TargetResult,
): Promise<void> {
  await ctx.db
    .update(postTargets)
    .set({
      status: result.status,
      platformPostId: result.platformPostId ?? null,
      url: result.url ?? null,
      error: result.error ?? null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(postTargets.postId, postId),
        eq(postTargets.accountId, result.accountId),
        eq(postTargets.claimOwner, owner),
      ),
    );
  if (
    result.error &&
    (result.error.code === 'needs_reconnect' || result.error.code === 'credentials_invalid')
  ) {
    await markNeedsReconnect(ctx, result.accountId);
  }
}

/** A post that no longer validates at dispatch time fails as a whole, saying why per target. */
async function recordInvalidTargets(
  ctx: AppContext,
  postId: string,
  owner: string,
  validation: ValidationResponse,
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
  if (rows.length === 0) return;
  await ctx.db
    .insert(postTargets)
    .values(rows)
    .onConflictDoUpdate({
      target: [postTargets.postId, postTargets.accountId],
      set: { status: 'failed', error: sql`excluded.error`, claimOwner: owner, updatedAt: now },
      setWhere: sql`${postTargets.status} = 'failed'`,
    });
}

/** Decides the post's status from its targets and gives up the lease. */
async function finalize(
  ctx: AppContext,
  post: PostRow,
  owner: string,
  mode: PublishMode,
): Promise<PublishOutcome> {
  const targets = await ctx.db.select().from(postTargets).where(eq(postTargets.postId, post.id));
  const byAccount = new Map(targets.map((t) => [t.accountId, t]));
  const outcomes = post.accountIds.map((id) => byAccount.get(id));
  const now = new Date();
  let status: PostRow['status'];
  let nextAttemptAt: Date | null = null;
  if (outcomes.every((t) => t?.status === 'posted')) {
    status = 'posted';
  } else if (
    outcomes.some((t) => t?.status === 'failed' && t.error?.retryable === false) ||
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
  const [updated] = await ctx.db
    .update(posts)
    .set({
      status,
      nextAttemptAt,
      leaseOwner: null,
      leaseExpiresAt: null,
      updatedAt: now,
      ...(status === 'posted' ? { postedAt: now } : {}),
    })
    .where(and(eq(posts.id, post.id), eq(posts.leaseOwner, owner)))
    .returning({ status: posts.status });
  return { status: updated ? updated.status : 'lost_lease' };
}
