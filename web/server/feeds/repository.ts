import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import type { Database } from '#server/db/client.ts';
import { feedItems, feeds } from '#server/db/schema.ts';

/** The only SQL of feeds: the feeds, their leases, and the items each has seen. */

export type FeedRow = typeof feeds.$inferSelect;
export type NewFeed = typeof feeds.$inferInsert;

const notLeased = () => or(isNull(feeds.leaseExpiresAt), lt(feeds.leaseExpiresAt, new Date()));

export async function feedsOf(ctx: AppContext, workspaceId: string): Promise<FeedRow[]> {
  return ctx.db
    .select()
    .from(feeds)
    .where(eq(feeds.workspaceId, workspaceId))
    .orderBy(asc(feeds.createdAt), asc(feeds.id));
}

export async function findFeed(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<FeedRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(feeds)
    .where(and(eq(feeds.id, id), eq(feeds.workspaceId, workspaceId)));
  return row;
}

export async function insertFeed(ctx: AppContext, values: NewFeed): Promise<FeedRow> {
  const [row] = await ctx.db.insert(feeds).values(values).returning();
  return row!;
}

export async function updateFeed(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  set: Partial<NewFeed>,
): Promise<FeedRow | undefined> {
  const [row] = await ctx.db
    .update(feeds)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(feeds.id, id), eq(feeds.workspaceId, workspaceId)))
    .returning();
  return row;
}

export async function deleteFeed(ctx: AppContext, workspaceId: string, id: string): Promise<boolean> {
  const rows = await ctx.db
    .delete(feeds)
    .where(and(eq(feeds.id, id), eq(feeds.workspaceId, workspaceId)))
    .returning({ id: feeds.id });
  return rows.length > 0;
}

/**
 * Takes the poll lease of one feed (any instance, any request): only a feed nobody holds. The
 * guarded update is the lock; a holder that dies lets the lease run out.
 */
export async function leaseFeed(
  ctx: AppContext,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<FeedRow | undefined> {
  const [row] = await ctx.db
    .update(feeds)
    .set({ leaseOwner: owner, leaseExpiresAt: new Date(Date.now() + leaseMs) })
    .where(and(eq(feeds.id, id), notLeased()))
    .returning();
  return row;
}

/** Ids of enabled feeds whose poll is due and that nobody holds (at most `limit`). */
export async function dueFeedIds(ctx: AppContext, limit: number): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: feeds.id })
    .from(feeds)
    .where(and(eq(feeds.enabled, true), lte(feeds.nextPollAt, new Date()), notLeased()))
    .orderBy(asc(feeds.nextPollAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Writes a poll's outcome and gives the lease back, if `owner` still holds it. */
export async function finishPoll(
  ctx: AppContext,
  id: string,
  owner: string,
  set: Partial<NewFeed>,
): Promise<FeedRow | undefined> {
  const [row] = await ctx.db
    .update(feeds)
    .set({ ...set, leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(feeds.id, id), eq(feeds.leaseOwner, owner)))
    .returning();
  return row;
}

/** Records items as seen; answers the ids that were new (first seen by this call). */
export async function markItemsSeen(
  ctx: AppContext,
  feedId: string,
  itemIds: string[],
): Promise<Set<string>> {
  if (itemIds.length === 0) return new Set();
  const seenAt = new Date();
  const rows = await ctx.db
    .insert(feedItems)
    .values(itemIds.map((itemId) => ({ feedId, itemId, seenAt })))
    .onConflictDoNothing()
    .returning({ itemId: feedItems.itemId });
  return new Set(rows.map((r) => r.itemId));
}

/** Which of these items the feed has seen before. */
export async function seenItemIds(ctx: AppContext, feedId: string, itemIds: string[]): Promise<Set<string>> {
  if (itemIds.length === 0) return new Set();
  const rows = await ctx.db
    .select({ itemId: feedItems.itemId })
    .from(feedItems)
    .where(and(eq(feedItems.feedId, feedId), inArray(feedItems.itemId, itemIds)));
  return new Set(rows.map((r) => r.itemId));
}

/**
 * Records one item as seen with the post made from it, in the caller's transaction (the one that
 * inserts the post). False when it was seen already: the caller rolls its post back.
 */
export async function markItemPosted(
  tx: { db: Database },
  feedId: string,
  itemId: string,
  postId: string,
): Promise<boolean> {
  const rows = await tx.db
    .insert(feedItems)
    .values({ feedId, itemId, postId, seenAt: new Date() })
    .onConflictDoNothing()
    .returning({ itemId: feedItems.itemId });
  return rows.length > 0;
}

export async function feedById(ctx: AppContext, id: string): Promise<FeedRow | undefined> {
  const [row] = await ctx.db.select().from(feeds).where(eq(feeds.id, id));
  return row;
}
