import {
  type MediaReference,
  PostingService,
  type PreparedPost,
  type ProblemIssue,
  type TargetResult,
  type ValidationResponse,
} from '@postwave/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { type posts, postTargets } from '../db/schema.ts';
import type { MicroBatcher, PostFinalization, TargetClaim } from '../dispatch/batches.ts';
import { trackWork } from '../lifecycle/shutdown.ts';
import {
  type AccountCache,
  accountLookup,
  markNeedsReconnect,
  saveRefreshedCredentials,
} from './accounts.ts';
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

/*
 * The statements below run for every published post, so they are written as SQL: drizzle's query
 * builder costs more CPU per statement than the database does to run them.
 */

/** `execute()` results: node-postgres and PGlite both expose `rows`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface ExistingTarget {
  accountId: string;
  status: TargetRow['status'];
  error: TargetRow['error'];
  claimOwner: string | null;
}

async function targetStates(ctx: AppContext, postId: string): Promise<ExistingTarget[]> {
  const result = await ctx.db.execute(sql`
    SELECT account_id AS "accountId", status, error, claim_owner AS "claimOwner"
    FROM post_targets WHERE post_id = ${postId}::uuid`);
  return rowsOf<ExistingTarget>(result);
}

/** Claims targets for `owner`: new ones, or ones that failed before; never posted or in-flight ones. */
async function claimTargets(
  ctx: AppContext,
  postId: string,
  owner: string,
  targets: { accountId: string; platform: string }[],
  now: Date,
): Promise<{ accountId: string }[]> {
  const at = now.toISOString();
  const values = sql.join(
    targets.map(
      (t) =>
        sql`(${postId}::uuid, ${t.accountId}, ${t.platform}, 'publishing', ${owner}, 1, ${at}::timestamptz)`,
    ),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, attempts, updated_at)
    VALUES ${values}
    ON CONFLICT (post_id, account_id) DO UPDATE
      SET status = 'publishing', claim_owner = excluded.claim_owner, error = NULL,
        attempts = post_targets.attempts + 1, updated_at = excluded.updated_at
      WHERE post_targets.status = 'failed'
    RETURNING account_id AS "accountId"`);
  return rowsOf<{ accountId: string }>(result);
}

/** What is known about each target of a post while it is being published. */
type TargetState = Map<string, Pick<TargetRow, 'status' | 'error'>>;

export interface PublishRun {
  /** Accounts looked up during one dispatch run, shared by its posts (many posts use few accounts). */
  accounts?: AccountCache;
  /** Dispatch shares statements between the posts it publishes at once. */
  batches?: {
    claims: MicroBatcher<TargetClaim, boolean>;
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

  // A target left `publishing` by a previous lease holder never reported back: it fails for good
  // here, since only a person who checked the account should resend it.
  const abandoned = existing
    .filter((t) => t.status === 'publishing' && t.claimOwner !== owner)
    .map((t) => t.accountId);
  if (abandoned.length) {
    await ctx.db
      .update(postTargets)
      .set({ status: 'failed', error: interrupted, updatedAt: new Date() })
      .where(
        and(
          eq(postTargets.postId, post.id),
          inArray(postTargets.accountId, abandoned),
          eq(postTargets.status, 'publishing'),
          sql`${postTargets.claimOwner} <> ${owner}`,
        ),
      );
    for (const accountId of abandoned) state.set(accountId, { status: 'failed', error: interrupted });
  }

  const skip = new Set([
    ...existing.filter((t) => t.status === 'posted').map((t) => t.accountId),
    ...abandoned,
  ]);
  const remaining = post.accountIds.filter((id) => !skip.has(id));
  let deferred: TargetResult | undefined;
  if (remaining.length > 0) {
    const prepared =
      preparedAhead ??
      (await postingServiceFor(ctx, post.userId).prepare(
        {
          message: post.message,
          accountIds: remaining,
          media: post.media,
          accountOptions: post.accountOptions,
        },
        accountLookup(ctx, post.userId, run.accounts),
      ));
    if (!prepared.targets) {
      await recordInvalidTargets(ctx, post.id, owner, prepared.validation, state);
    } else {
      deferred = await publishTargets(ctx, post, owner, prepared, mode, state, run);
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
): Promise<TargetResult | undefined> {
  const targets = prepared.targets!;
  const now = new Date();
  const batches = run.batches;
  const claimed = batches
    ? (
        await Promise.all(
          targets.map(async (t) =>
            (await batches.claims.add({
              postId: post.id,
              accountId: t.account.id,
              platform: t.account.platform,
              owner,
            }))
              ? [{ accountId: t.account.id }]
              : [],
          ),
        )
      ).flat()
    : await claimTargets(
        ctx,
        post.id,
        owner,
        targets.map((t) => ({ accountId: t.account.id, platform: t.account.platform })),
        now,
      );
  const mine = new Set(claimed.map((c) => c.accountId));
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
  let deferred: TargetResult | undefined;
  await Promise.all(
    mineTargets.map(async (target) => {
      const [result] = await service.publish(
        { ...prepared, targets: [target] },
        {
          idempotencyKey: post.id,
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

function resultUpdate(postId: string, owner: string, result: TargetResult) {
  return sql`
    UPDATE post_targets
    SET status = ${result.status}, platform_post_id = ${result.platformPostId ?? null}, url = ${result.url ?? null},
      error = ${result.error ? JSON.stringify(result.error) : null}::jsonb, updated_at = ${new Date().toISOString()}::timestamptz
    WHERE post_id = ${postId}::uuid AND account_id = ${result.accountId} AND claim_owner = ${owner}`;
}

async function recordResult(
  ctx: AppContext,
  postId: string,
  owner: string,
  result: TargetResult,
): Promise<void> {
  await ctx.db.execute(resultUpdate(postId, owner, result));
  await flagReconnect(ctx, result);
}

async function flagReconnect(ctx: AppContext, result: TargetResult): Promise<void> {
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
  if (rows.length === 0) return;
  await ctx.db
    .insert(postTargets)
    .values(rows)
    .onConflictDoUpdate({
      target: [postTargets.postId, postTargets.accountId],
      set: { status: 'failed', error: sql`excluded.error`, claimOwner: owner, updatedAt: now },
      setWhere: sql`${postTargets.status} = 'failed'`,
    });
  for (const row of rows) state.set(row.accountId, { status: 'failed', error: row.error });
}

/** Decides the post's status from its targets and gives up the lease. */
async function finalize(
  ctx: AppContext,
  post: PostRow,
  owner: string,
  mode: PublishMode,
  state: TargetState,
  deferred: TargetResult | undefined,
  run: PublishRun,
): Promise<PublishOutcome> {
  if (post.accountIds.some((id) => !state.has(id))) {
    // Some target's outcome is not known here (held elsewhere): read the recorded truth.
    const rows = await ctx.db.select().from(postTargets).where(eq(postTargets.postId, post.id));
    for (const row of rows) state.set(row.accountId, row);
  }
  const outcomes = post.accountIds.map((id) => state.get(id));
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
  // A data-modifying CTE always runs: the deferred target result is written whatever the lease says.
  if (run.batches) {
    const updated = await run.batches.finalizations.add({
      postId: post.id,
      owner,
      status,
      nextAttemptAt,
      deferred,
    });
    if (deferred) await flagReconnect(ctx, deferred);
    return { status: updated ?? 'lost_lease' };
  }
  const recordDeferred = deferred
    ? sql`WITH recorded AS (${resultUpdate(post.id, owner, deferred)}) `
    : sql``;
  const result = await ctx.db.execute(sql`
    ${recordDeferred}UPDATE posts
    SET status = ${status}, next_attempt_at = ${nextAttemptAt?.toISOString() ?? null}::timestamptz,
      lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now.toISOString()}::timestamptz,
      posted_at = ${status === 'posted' ? now.toISOString() : null}::timestamptz
    WHERE id = ${post.id}::uuid AND lease_owner = ${owner}
    RETURNING status`);
  const [updated] = rowsOf<{ status: PostRow['status'] }>(result);
  if (deferred) await flagReconnect(ctx, deferred);
  return { status: updated ? updated.status : 'lost_lease' };
}
