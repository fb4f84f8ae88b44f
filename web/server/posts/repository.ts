import type { TargetOutcome } from '@postwave/shared';
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import type { Database } from '#server/db/client.ts';
import {
  type PostStatus,
  postEvents,
  posts,
  postTargets,
  type StoredPart,
  type StoredStep,
} from '#server/db/schema.ts';

/*
 * The only SQL for posts and their targets. Each operation is one statement that runs on PGlite
 * and PostgreSQL alike. The statements that run for every published post are written as SQL:
 * drizzle's query builder costs more CPU per statement than the database does to run them.
 */

export type PostRow = typeof posts.$inferSelect;
export type TargetRow = typeof postTargets.$inferSelect;
export type TargetView = Pick<
  TargetRow,
  | 'accountId'
  | 'platform'
  | 'status'
  | 'platformPostId'
  | 'url'
  | 'error'
  | 'parts'
  | 'firstComment'
  | 'details'
>;

/** What a publisher needs to know about a target it may (re)claim. */
export interface ExistingTarget {
  accountId: string;
  platform: string;
  status: TargetRow['status'];
  error: TargetRow['error'];
  claimOwner: string | null;
  dedupeHandle: string | null;
  /** When the row last changed (ms since the epoch): for a `publishing` row, when its intent was recorded. */
  updatedAt: number;
  /** A thread's parts as far as they went; a retry continues after the posted ones. */
  parts: StoredPart[] | null;
  firstComment: StoredStep | null;
}

export type ClaimedPost = PostRow & { targets: ExistingTarget[] };

export interface TargetClaim {
  postId: string;
  accountId: string;
  platform: string;
  owner: string;
  /** The platform's dedupe handle for a first send; a handle stored by an earlier intent wins. */
  dedupeHandle: string | null;
}

/** Undefined: not the caller's to send. Otherwise the intent as stored. */
export type ClaimAnswer = { dedupeHandle: string | null } | undefined;

export interface RecordedResult {
  postId: string;
  owner: string;
  result: TargetOutcome;
}

/** A thread step posted, and the next step's intent, recorded before that step is sent. */
export interface RecordedStep {
  postId: string;
  accountId: string;
  owner: string;
  parts: StoredPart[] | null;
  firstComment: StoredStep | null;
  /** The dedupe handle of the next step (the target's handle always belongs to its first unposted step). */
  dedupeHandle: string | null;
}

export interface PostFinalization {
  postId: string;
  owner: string;
  status: PostStatus;
  nextAttemptAt: Date | null;
  /** A target result not yet written: written in the same statement. */
  deferred: TargetOutcome | undefined;
}

/** Posts that nobody is publishing right now and that may still change. */
export const editableStatuses: PostStatus[] = ['draft', 'scheduled', 'failed'];
const notLeased = () => or(isNull(posts.leaseExpiresAt), lt(posts.leaseExpiresAt, new Date()));

/** `execute()` results: node-postgres and PGlite both expose `rows`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export async function findPost(
  ctx: AppContext,
  userId: string,
  postId: string,
): Promise<PostRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.userId, userId)));
  return row;
}

export type NewPostRow = typeof posts.$inferInsert;

/** A database or a transaction: whatever can run these statements. */
export type Db = { db: Database };

export async function insertPost(ctx: Db, values: NewPostRow): Promise<PostRow> {
  const [row] = await ctx.db.insert(posts).values(values).returning();
  return row!;
}

/**
 * Inserts many posts with the caller's database or transaction (an import commits them with its
 * own record, all or nothing). Chunks keep each statement's parameter count well under
 * PostgreSQL's limit.
 */
export async function insertPosts(ctx: Db, rows: readonly NewPostRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await ctx.db.insert(posts).values(rows.slice(i, i + 200));
}

/** Runs `work` in one transaction (a savepoint when `ctx` is a transaction already). */
export async function inTransaction<T>(ctx: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => work({ db: tx as unknown as Database }));
}

/** Each post's target results as JSON, fetched with the page in the same statement. */
const targetsJson = sql<TargetView[]>`(
  SELECT coalesce(json_agg(json_build_object(
    'accountId', t.account_id, 'platform', t.platform, 'status', t.status,
    'platformPostId', t.platform_post_id, 'url', t.url, 'error', t.error,
    'parts', t.parts, 'firstComment', t.first_comment, 'details', t.details)), '[]'::json)
  FROM post_targets t WHERE t.post_id = ${posts.id})`;

/** Newest first, keyset-paginated on (createdAt, id): one backward index range scan per page. */
export async function listPostPage(
  ctx: AppContext,
  userId: string,
  page: {
    status?: PostStatus | undefined;
    limit: number;
    after?: { createdAt: Date; id: string } | undefined;
  },
): Promise<{ post: PostRow; targets: TargetView[] }[]> {
  const { after } = page;
  return ctx.db
    .select({ post: posts, targets: targetsJson })
    .from(posts)
    .where(
      and(
        eq(posts.userId, userId),
        page.status ? eq(posts.status, page.status) : undefined,
        after
          ? sql`(${posts.createdAt}, ${posts.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(page.limit);
}

/** Scheduled, posted and failed posts whose time falls in [from, to), earliest first (at most 1000). */
export async function postsInWindow(ctx: AppContext, userId: string, from: Date, to: Date) {
  return ctx.db
    .select({
      id: posts.id,
      status: posts.status,
      message: posts.message,
      accountIds: posts.accountIds,
      postedAt: posts.postedAt,
      scheduledAt: posts.scheduledAt,
    })
    .from(posts)
    .where(
      and(
        eq(posts.userId, userId),
        inArray(posts.status, ['scheduled', 'posted', 'failed']),
        or(
          and(gte(posts.scheduledAt, from), lt(posts.scheduledAt, to)),
          and(gte(posts.postedAt, from), lt(posts.postedAt, to)),
        ),
      ),
    )
    .orderBy(sql`coalesce(${posts.postedAt}, ${posts.scheduledAt})`)
    .limit(1000);
}

/** Updates the row only if nobody published or edited it since it was read (optimistic lock). */
export async function updatePostIfUnchanged(
  ctx: AppContext,
  row: PostRow,
  set: Partial<typeof posts.$inferInsert>,
): Promise<PostRow | undefined> {
  const [updated] = await ctx.db
    .update(posts)
    .set({ ...set, updatedAt: new Date() })
    .where(
      and(
        eq(posts.id, row.id),
        eq(posts.updatedAt, row.updatedAt),
        inArray(posts.status, editableStatuses),
        notLeased(),
      ),
    )
    .returning();
  return updated;
}

export async function targetsOf(ctx: AppContext, postId: string): Promise<TargetRow[]> {
  return ctx.db.select().from(postTargets).where(eq(postTargets.postId, postId));
}

/** Results of targets that were dropped and never posted no longer mean anything. */
export async function deleteDroppedTargets(ctx: AppContext, postId: string, keep: string[]): Promise<void> {
  await ctx.db
    .delete(postTargets)
    .where(
      and(
        eq(postTargets.postId, postId),
        sql`${postTargets.status} <> 'posted'`,
        sql`NOT (${postTargets.accountId} = ANY(${sql.param(keep)}::text[]))`,
      ),
    );
}

export async function postedAccountIds(ctx: AppContext, postId: string): Promise<Set<string>> {
  const rows = await ctx.db
    .select({ accountId: postTargets.accountId })
    .from(postTargets)
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'posted')));
  return new Set(rows.map((r) => r.accountId));
}

export async function targetStates(ctx: AppContext, postId: string): Promise<ExistingTarget[]> {
  const result = await ctx.db.execute(sql`
    SELECT account_id AS "accountId", platform, status, error, claim_owner AS "claimOwner",
      dedupe_handle AS "dedupeHandle", (extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAt",
      parts, first_comment AS "firstComment"
    FROM post_targets WHERE post_id = ${postId}::uuid`);
  return rowsOf<ExistingTarget>(result);
}

/** Marks `unknown` the intents another lease holder left `publishing` (they never reported back). */
export async function markTargetsUnknown(
  ctx: AppContext,
  postId: string,
  accountIds: string[],
  owner: string,
  error: NonNullable<TargetRow['error']>,
): Promise<void> {
  await ctx.db
    .update(postTargets)
    .set({ status: 'unknown', error, claimOwner: owner, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.postId, postId),
        inArray(postTargets.accountId, accountIds),
        eq(postTargets.status, 'publishing'),
        sql`${postTargets.claimOwner} <> ${owner}`,
      ),
    );
}

/**
 * Records publish intents, of one post or many, in one statement: a `publishing` row holding the
 * claimer and the platform's dedupe handle, written before the platform is called. New targets
 * and failed ones may be claimed, never posted or in-flight ones (a guarded upsert). A handle
 * already stored is kept, so every send of a target carries the same one. Answers, per claim,
 * the stored intent, or undefined when the target is not the caller's to send.
 */
export async function claimTargets(ctx: AppContext, claims: readonly TargetClaim[]): Promise<ClaimAnswer[]> {
  const at = new Date().toISOString();
  const values = sql.join(
    claims.map(
      (c) =>
        sql`(${c.postId}::uuid, ${c.accountId}, ${c.platform}, 'publishing', ${c.owner}, ${c.dedupeHandle}::text, 1, ${at}::timestamptz)`,
    ),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, dedupe_handle, attempts, updated_at)
    VALUES ${values}
    ON CONFLICT (post_id, account_id) DO UPDATE
      SET status = 'publishing', claim_owner = excluded.claim_owner, error = NULL,
        dedupe_handle = coalesce(post_targets.dedupe_handle, excluded.dedupe_handle),
        attempts = post_targets.attempts + 1, updated_at = excluded.updated_at
      WHERE post_targets.status = 'failed'
    RETURNING post_id::text AS "postId", account_id AS "accountId", dedupe_handle AS "dedupeHandle"`);
  const won = new Map(
    rowsOf<{ postId: string; accountId: string; dedupeHandle: string | null }>(result).map((r) => [
      `${r.postId}|${r.accountId}`,
      { dedupeHandle: r.dedupeHandle },
    ]),
  );
  return claims.map((c) => won.get(`${c.postId}|${c.accountId}`));
}

/**
 * Takes over intents that `previousOwner` left `publishing` (it died or lost its lease), to resume
 * them where the platform makes a resend safe. Only the holder of the post's lease may, and only
 * from the owner it saw: a live claimer that raced in since keeps its intent. Answers the stored
 * dedupe handle per account taken over.
 */
export async function resumeTargets(
  ctx: AppContext,
  postId: string,
  targets: readonly { accountId: string; previousOwner: string }[],
  owner: string,
): Promise<Map<string, string | null>> {
  if (targets.length === 0) return new Map();
  const values = sql.join(
    targets.map((t) => sql`(${t.accountId}::text, ${t.previousOwner}::text)`),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    UPDATE post_targets AS t
    SET claim_owner = ${owner}, attempts = t.attempts + 1
    FROM (VALUES ${values}) AS v(account_id, previous_owner)
    WHERE t.post_id = ${postId}::uuid AND t.account_id = v.account_id AND t.status = 'publishing'
      AND t.claim_owner = v.previous_owner
      AND EXISTS (SELECT 1 FROM posts p WHERE p.id = t.post_id AND p.lease_owner = ${owner})
    RETURNING t.account_id AS "accountId", t.dedupe_handle AS "dedupeHandle"`);
  return new Map(
    rowsOf<{ accountId: string; dedupeHandle: string | null }>(result).map((r) => [
      r.accountId,
      r.dedupeHandle,
    ]),
  );
}

/**
 * A person's answer to `unknown` targets: `posted` (they checked the account) or `failed` (to be
 * sent again). Only `unknown` targets change; answers the account ids that changed.
 */
export async function resolveUnknownTargets(
  ctx: AppContext,
  postId: string,
  accountIds: readonly string[] | undefined,
  status: 'posted' | 'failed',
): Promise<string[]> {
  const error =
    status === 'failed'
      ? JSON.stringify({
          code: 'outcome_unknown',
          message: 'The outcome of an interrupted send was unknown; sent again on request',
          retryable: true,
        })
      : null;
  const result = await ctx.db.execute(sql`
    UPDATE post_targets SET status = ${status}, error = ${error}::jsonb, updated_at = ${new Date().toISOString()}::timestamptz
    WHERE post_id = ${postId}::uuid AND status = 'unknown'
      ${accountIds ? sql`AND account_id = ANY(${sql.param([...accountIds])}::text[])` : sql``}
    RETURNING account_id AS "accountId"`);
  return rowsOf<{ accountId: string }>(result).map((r) => r.accountId);
}

/** The UPDATE that writes target results (only where the writer still holds the claim). */
function resultsUpdate(results: readonly RecordedResult[], at: string) {
  const values = sql.join(
    results.map(
      ({
        postId,
        owner,
        result: r,
      }) => sql`(${postId}::uuid, ${r.accountId}::text, ${owner}::text, ${r.status}::text,
        ${r.platformPostId ?? null}::text, ${r.url ?? null}::text,
        ${r.error ? JSON.stringify(r.error) : null}::jsonb, ${at}::timestamptz,
        ${r.parts ? JSON.stringify(r.parts) : null}::jsonb, ${r.firstComment ? JSON.stringify(r.firstComment) : null}::jsonb,
        ${r.details ? JSON.stringify(r.details) : null}::jsonb)`,
    ),
    sql`, `,
  );
  return sql`UPDATE post_targets AS t
    SET status = r.status, platform_post_id = r.platform_post_id, url = r.url, error = r.error, updated_at = r.at,
      parts = coalesce(r.parts, t.parts), first_comment = coalesce(r.first_comment, t.first_comment),
      details = coalesce(r.details, t.details)
    FROM (VALUES ${values}) AS r(post_id, account_id, owner, status, platform_post_id, url, error, at, parts, first_comment, details)
    WHERE t.post_id = r.post_id AND t.account_id = r.account_id AND t.claim_owner = r.owner`;
}

/**
 * Records a posted thread step together with the next step's intent (its dedupe handle), before
 * that step is sent; only while the writer still holds the target's claim. False when it does not.
 */
export async function recordStep(ctx: AppContext, step: RecordedStep): Promise<boolean> {
  const result = await ctx.db.execute(sql`
    UPDATE post_targets
    SET parts = ${step.parts ? JSON.stringify(step.parts) : null}::jsonb,
      first_comment = ${step.firstComment ? JSON.stringify(step.firstComment) : null}::jsonb,
      dedupe_handle = ${step.dedupeHandle}::text, updated_at = ${new Date().toISOString()}::timestamptz
    WHERE post_id = ${step.postId}::uuid AND account_id = ${step.accountId} AND claim_owner = ${step.owner}
      AND status = 'publishing'
    RETURNING account_id`);
  return rowsOf(result).length > 0;
}

export async function recordResults(ctx: AppContext, results: readonly RecordedResult[]): Promise<void> {
  if (results.length) await ctx.db.execute(resultsUpdate(results, new Date().toISOString()));
}

/** A post that no longer validates fails per target, saying why; only missing or failed targets change. */
export async function recordFailedTargets(
  ctx: AppContext,
  rows: (typeof postTargets.$inferInsert)[],
  owner: string,
): Promise<void> {
  if (rows.length === 0) return;
  const now = new Date();
  await ctx.db
    .insert(postTargets)
    .values(rows)
    .onConflictDoUpdate({
      target: [postTargets.postId, postTargets.accountId],
      set: { status: 'failed', error: sql`excluded.error`, claimOwner: owner, updatedAt: now },
      setWhere: sql`${postTargets.status} = 'failed'`,
    });
}

/**
 * Writes posts' final status and gives up their leases, together with each post's last target
 * result, in one statement; answers each post's status, or null where the lease was lost. A
 * data-modifying CTE always runs: the deferred result is written whatever the lease says.
 */
export async function finalizePosts(
  ctx: AppContext,
  items: readonly PostFinalization[],
): Promise<(PostStatus | null)[]> {
  const now = new Date().toISOString();
  const deferred = items.flatMap((i) =>
    i.deferred ? [{ postId: i.postId, owner: i.owner, result: i.deferred }] : [],
  );
  const recorded = deferred.length ? sql`recorded AS (${resultsUpdate(deferred, now)}), ` : sql``;
  const values = sql.join(
    items.map(
      (i) => sql`(${i.postId}::uuid, ${i.owner}::text, ${i.status}::text,
        ${i.nextAttemptAt?.toISOString() ?? null}::timestamptz,
        ${i.status === 'posted' ? now : null}::timestamptz)`,
    ),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    WITH ${recorded}v(id, owner, status, next_attempt_at, posted_at) AS (VALUES ${values})
    UPDATE posts AS p
    SET status = v.status, next_attempt_at = v.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL,
      updated_at = ${now}::timestamptz, posted_at = coalesce(v.posted_at, p.posted_at)
    FROM v
    WHERE p.id = v.id AND p.lease_owner = v.owner
    RETURNING p.id::text AS id, p.status`);
  const statuses = new Map(rowsOf<{ id: string; status: PostStatus }>(result).map((r) => [r.id, r.status]));
  return items.map((i) => statuses.get(i.postId) ?? null);
}

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

/** A raw `posts` row (snake_case, as `execute()` returns it) as the drizzle row type. */
function claimedPostFromRow(row: Record<string, unknown>): ClaimedPost {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    status: row.status as PostRow['status'],
    message: String(row.message),
    accountIds: row.account_ids as string[],
    media: row.media as PostRow['media'],
    accountOptions: row.account_options as PostRow['accountOptions'],
    overrides: (row.overrides as PostRow['overrides'] | null) ?? {},
    thread: (row.thread as PostRow['thread'] | null) ?? [],
    scheduledAt: toDate(row.scheduled_at),
    postedAt: toDate(row.posted_at),
    createdAt: toDate(row.created_at)!,
    updatedAt: toDate(row.updated_at)!,
    nextAttemptAt: toDate(row.next_attempt_at),
    leaseOwner: (row.lease_owner as string | null) ?? null,
    leaseExpiresAt: toDate(row.lease_expires_at),
    attempts: Number(row.attempts),
    targets: (row.targets as ExistingTarget[] | null) ?? [],
  };
}

/**
 * Claims due posts with a lease and marks them taken in one statement, returning each post with
 * its targets' states. SKIP LOCKED lets concurrent dispatchers claim disjoint sets; pushing
 * `next_attempt_at` to the lease expiry means a post whose dispatcher died becomes due again
 * exactly when its lease runs out.
 */
export async function claimDuePosts(
  ctx: AppContext,
  owner: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedPost[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT id FROM posts
      WHERE status = 'scheduled' AND next_attempt_at <= ${now.toISOString()}::timestamptz
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE posts AS p
    SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil}::timestamptz,
      next_attempt_at = ${leaseUntil}::timestamptz, attempts = p.attempts + 1
    FROM due
    WHERE p.id = due.id
    RETURNING p.*, (
      SELECT coalesce(json_agg(json_build_object(
        'accountId', t.account_id, 'platform', t.platform, 'status', t.status, 'error', t.error,
        'claimOwner', t.claim_owner, 'dedupeHandle', t.dedupe_handle,
        'updatedAt', (extract(epoch FROM t.updated_at) * 1000)::float8,
        'parts', t.parts, 'firstComment', t.first_comment)), '[]'::json)
      FROM post_targets t WHERE t.post_id = p.id
    ) AS targets`);
  return rowsOf<Record<string, unknown>>(result).map(claimedPostFromRow);
}

/** Gives a claimed but untouched post back so the next dispatcher takes it without waiting for the lease. */
export async function releasePost(ctx: AppContext, postId: string, owner: string): Promise<void> {
  await ctx.db.execute(sql`
    UPDATE posts SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = ${new Date().toISOString()}::timestamptz,
      attempts = attempts - 1
    WHERE id = ${postId} AND lease_owner = ${owner}`);
}

/** One entry of a post's history (who did what, e.g. an assistant publishing it). */
export async function insertPostEvent(ctx: AppContext, row: typeof postEvents.$inferInsert): Promise<void> {
  await ctx.db.insert(postEvents).values(row);
}

/** A post's history, oldest first, only the user's own. */
export function selectPostEvents(ctx: AppContext, userId: string, postId: string) {
  return ctx.db
    .select()
    .from(postEvents)
    .where(and(eq(postEvents.postId, postId), eq(postEvents.userId, userId)))
    .orderBy(asc(postEvents.createdAt), asc(postEvents.id));
}

/**
 * Extends the leases `owner` still holds (one statement for a whole batch), keeping `next_attempt_at`
 * at the lease's end as the claim does, so a live dispatcher never loses a post to another while
 * its publishing runs long; a dead one stops renewing and its posts become due when the lease ends.
 */
export async function renewPostLeases(
  ctx: AppContext,
  owner: string,
  postIds: readonly string[],
  leaseMs: number,
): Promise<void> {
  if (postIds.length === 0) return;
  const until = new Date(Date.now() + leaseMs).toISOString();
  await ctx.db.execute(sql`
    UPDATE posts SET lease_expires_at = ${until}::timestamptz, next_attempt_at = ${until}::timestamptz
    WHERE lease_owner = ${owner} AND id = ANY(${sql.param([...postIds])}::uuid[])`);
}
