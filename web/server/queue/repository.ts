import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, inTransaction } from '#server/db/access.ts';
import { accountQueues, posts } from '#server/db/schema.ts';

/**
 * The only SQL of the queue: an account's slots, and the scheduled posts that hold them. A queue
 * operation that picks or moves times runs in one transaction holding a per-user advisory lock,
 * so two requests never take the same slot or swap the same posts at once.
 */

export type QueueRow = typeof accountQueues.$inferSelect;

export async function queuesOf(ctx: Db, workspaceId: string, accountIds: string[]): Promise<QueueRow[]> {
  if (accountIds.length === 0) return [];
  return ctx.db
    .select()
    .from(accountQueues)
    .where(and(eq(accountQueues.workspaceId, workspaceId), inArray(accountQueues.accountId, accountIds)));
}

export async function saveQueue(ctx: Db, row: typeof accountQueues.$inferInsert): Promise<void> {
  await ctx.db
    .insert(accountQueues)
    .values(row)
    .onConflictDoUpdate({
      target: accountQueues.accountId,
      set: { timezone: row.timezone, slots: row.slots, updatedAt: row.updatedAt },
    });
}

/** Posts are jsonb arrays of account ids: `@>` asks whether one of them is this account. */
const hasAccount = (accountId: string) => sql`${posts.accountIds} @> jsonb_build_array(${accountId}::text)`;

export interface ScheduledSlotHolder {
  id: string;
  accountIds: string[];
  scheduledAt: Date;
}

/** Scheduled posts after `after` that target any of these accounts (the slots they hold). */
export async function scheduledHolders(
  ctx: Db,
  workspaceId: string,
  accountIds: string[],
  after: Date,
): Promise<ScheduledSlotHolder[]> {
  if (accountIds.length === 0) return [];
  const rows = await ctx.db
    .select({ id: posts.id, accountIds: posts.accountIds, scheduledAt: posts.scheduledAt })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        eq(posts.status, 'scheduled'),
        gt(posts.scheduledAt, after),
        or(...accountIds.map(hasAccount)),
      ),
    );
  return rows.flatMap((r) => (r.scheduledAt ? [{ ...r, scheduledAt: r.scheduledAt }] : []));
}

export interface UpcomingPost {
  id: string;
  message: string;
  accountIds: string[];
  scheduledAt: Date;
}

/** The account's scheduled posts after `after`, earliest first (at most 500). */
export async function upcomingPosts(
  ctx: Db,
  workspaceId: string,
  accountId: string,
  after: Date,
): Promise<UpcomingPost[]> {
  const rows = await ctx.db
    .select({
      id: posts.id,
      message: posts.message,
      accountIds: posts.accountIds,
      scheduledAt: posts.scheduledAt,
    })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        eq(posts.status, 'scheduled'),
        gt(posts.scheduledAt, after),
        hasAccount(accountId),
      ),
    )
    .orderBy(asc(posts.scheduledAt), asc(posts.id))
    .limit(500);
  return rows.flatMap((r) => (r.scheduledAt ? [{ ...r, scheduledAt: r.scheduledAt }] : []));
}

/**
 * Moves scheduled posts nobody is publishing to new times (and their next dispatch with them).
 * False, and nothing changed, when any of them is no longer such a post.
 */
export async function moveScheduledPosts(
  ctx: Db,
  workspaceId: string,
  moves: { postId: string; at: Date }[],
): Promise<boolean> {
  const now = new Date();
  for (const { postId, at } of moves) {
    const updated = await ctx.db
      .update(posts)
      .set({ scheduledAt: at, nextAttemptAt: at, updatedAt: now })
      .where(
        and(
          eq(posts.id, postId),
          eq(posts.workspaceId, workspaceId),
          eq(posts.status, 'scheduled'),
          or(isNull(posts.leaseExpiresAt), lt(posts.leaseExpiresAt, now)),
        ),
      )
      .returning({ id: posts.id });
    if (updated.length === 0) return false;
  }
  return true;
}

/** Thrown inside a queue transaction to roll it back. */
export class QueueConflict extends Error {}

/** Runs `work` in a transaction that holds the user's queue lock until it commits. */
export async function withQueueLock<T>(
  ctx: Db,
  workspaceId: string,
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`postwave-queue:${workspaceId}`}))`);
    return work(tx);
  });
}
