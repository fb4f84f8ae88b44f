import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import type { Db } from '#server/db/access.ts';
import { accounts, type PostEventActor, postEvents, posts } from '#server/db/schema.ts';

/** The only SQL of a post's history (history.ts). */

/**
 * The post's row and the user's, locked as a foreign key's check would (post_events has none,
 * migration 0037): an event is written only while its post exists, and a post or user deleted at
 * the same time waits for it, then writes `deleted` after it (or clears the user).
 */
function ownersHeld(postId: string, userId: string | null | undefined) {
  return {
    userId: sql`(SELECT u.id FROM users u WHERE u.id = ${userId ?? null}::uuid FOR KEY SHARE)`,
    /** `posts p`, with `joins`, where p is the post. */
    post: (joins = sql``) => sql`posts p ${joins} WHERE p.id = ${postId}::uuid FOR KEY SHARE OF p`,
  };
}

/** One entry of a post's history (who did what, e.g. an assistant publishing it), in its post's workspace. */
export async function insertPostEvent(
  ctx: AppContext,
  row: Omit<typeof postEvents.$inferInsert, 'workspaceId'>,
): Promise<void> {
  const held = ownersHeld(row.postId, row.userId);
  await ctx.db.execute(sql`
    INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, actor_name, action, detail, created_at)
    SELECT ${row.id}::uuid, p.id, p.workspace_id, ${held.userId}, ${row.actor ?? null}, ${row.actorName ?? null}, ${row.action},
      ${JSON.stringify(row.detail ?? {})}::jsonb, ${(row.createdAt ?? new Date()).toISOString()}::timestamptz
    FROM ${held.post()}`);
}

/**
 * A call retried at once is an attempt of its own: the target's `attempts` moves on by one in the
 * same statement, so this call keeps the number it was made under and the next call (whose outcome
 * the targets' trigger records) carries the next one. A target row that is not there (never the
 * case while its publish holds it) still gets its event, without a number.
 */
export async function insertRetriedCallEvent(
  ctx: AppContext,
  row: Omit<typeof postEvents.$inferInsert, 'attempt' | 'workspaceId'> & { accountId: string },
): Promise<void> {
  const error = row.error === undefined || row.error === null ? null : JSON.stringify(row.error);
  const held = ownersHeld(row.postId, row.userId);
  await ctx.db.execute(sql`
    WITH bumped AS (
      UPDATE post_targets SET attempts = attempts + 1
      WHERE post_id = ${row.postId} AND account_id = ${row.accountId}
      RETURNING attempts - 1 AS attempt
    )
    INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, account_id, part, attempt, outcome, error, created_at)
    SELECT ${row.id}::uuid, p.id, p.workspace_id, ${held.userId}, ${row.actor ?? null}, ${row.action},
      ${JSON.stringify(row.detail ?? {})}::jsonb, ${row.accountId}, ${row.part ?? null}::int, nullif(bumped.attempt, 0),
      ${row.outcome ?? null}, ${error}::jsonb, ${(row.createdAt ?? new Date()).toISOString()}::timestamptz
    FROM ${held.post(sql`LEFT JOIN bumped ON true`)}`);
}

/**
 * Names the actor of the posts' events this transaction's triggers wrote without one (created,
 * updated, scheduled, moved to draft, resolved, deleted…): their rows' `xmin` is this transaction's id.
 */
export async function nameTimelineActor(
  tx: Db,
  workspaceId: string,
  postIds: readonly string[],
  actor: PostEventActor,
  name: string,
): Promise<void> {
  await tx.db.execute(sql`UPDATE post_events SET actor = ${actor}, actor_name = ${name.slice(0, 200)}
    WHERE workspace_id = ${workspaceId}::uuid AND post_id = ANY(${sql.param([...postIds])}::uuid[])
      AND actor IS NULL AND xmin = pg_current_xact_id()::xid`);
}

/**
 * A post's history, oldest first, only for a post of the workspace; a deleted post's too (its
 * events stay, `deleted` last: nothing is written for a post once it is gone, whatever the clocks).
 */
export async function selectPostEvents(ctx: AppContext, workspaceId: string, postId: string) {
  const rows = await ctx.db
    .select({ event: postEvents })
    .from(postEvents)
    .where(and(eq(postEvents.workspaceId, workspaceId), eq(postEvents.postId, postId)))
    .orderBy(
      asc(sql`${postEvents.action} = 'deleted'`),
      asc(postEvents.createdAt),
      // At one instant the post's outcome follows its targets' attempts (one statement writes both),
      // and what recycling did about it follows the outcome.
      asc(
        sql`case when ${postEvents.action} in ('posted', 'failed') then 1 when ${postEvents.action} in ('recycle_scheduled', 'recycle_stopped') then 2 else 0 end`,
      ),
      asc(postEvents.seq),
    );
  return rows.map((r) => r.event);
}

/** The recycling stops one finished post of a chain wrote on its original's timeline (recycle-notice.ts). */
export async function selectRecycleStops(ctx: AppContext, rootId: string, fromPostId: string) {
  return ctx.db
    .select({
      accountId: postEvents.accountId,
      account: sql<string | null>`coalesce(${accounts.label}, ${accounts.username})`,
      detail: postEvents.detail,
      userId: posts.userId,
    })
    .from(postEvents)
    .innerJoin(posts, and(eq(posts.id, postEvents.postId), eq(posts.workspaceId, postEvents.workspaceId)))
    .leftJoin(accounts, sql`${accounts.id}::text = ${postEvents.accountId}`)
    .where(
      and(
        eq(postEvents.postId, rootId),
        eq(postEvents.action, 'recycle_stopped'),
        sql`${postEvents.detail} ->> 'fromPostId' = ${fromPostId}`,
      ),
    )
    .orderBy(asc(postEvents.seq));
}
