import { ProblemError } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { createDeferredPost, type DeferredMode } from '#server/posts/create-deferred-post.ts';
import { checkSavedUrl } from '#server/security/saved-url.ts';
import { fetchFeed } from './fetch.ts';
import { type FeedItem, feedItems, renderTemplate } from './items.ts';
import {
  deleteFeed as deleteFeedRow,
  type FeedRow,
  feedById,
  feedsOf,
  findFeed,
  finishPoll,
  insertFeed,
  leaseFeed,
  markItemPosted,
  markItemsSeen,
  seenItemIds,
  updateFeed as updateFeedRow,
} from './repository.ts';
import type { FeedPatch, FeedPollResult, FeedRequest, FeedView } from './schema.ts';

/** A poll holds its feed this long at most (fetch, parse, a few posts). */
const pollLeaseMs = 2 * 60 * 1000;
/** New items turned into posts per poll; more at once (a feed that renumbered its ids) are only marked seen. */
const maxPostsPerPoll = 10;

export function toFeedView(row: FeedRow): FeedView {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    accountIds: row.accountIds,
    template: row.template,
    mode: row.mode,
    intervalMinutes: row.intervalMinutes,
    enabled: row.enabled,
    lastPolledAt: row.lastPolledAt?.toISOString() ?? null,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextPollAt: row.nextPollAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function ownedFeed(ctx: AppContext, workspaceId: string, id: string): Promise<FeedRow> {
  const row = isUuid(id) ? await findFeed(ctx, workspaceId, id) : undefined;
  if (!row) throw notFound('feed');
  return row;
}

export async function listFeeds(ctx: AppContext, workspaceId: string): Promise<FeedView[]> {
  return (await feedsOf(ctx, workspaceId)).map(toFeedView);
}

export async function getFeed(ctx: AppContext, workspaceId: string, id: string): Promise<FeedView> {
  return toFeedView(await ownedFeed(ctx, workspaceId, id));
}

/**
 * Saves the feed and polls it once right away: that first poll marks the items already in the
 * feed as seen, so adding a feed never floods its accounts with its back catalogue.
 */
export async function createFeed(
  ctx: AppContext,
  workspaceId: string,
  input: FeedRequest,
): Promise<FeedView> {
  const accountIds = [...new Set(input.accountIds)];
  await assertOwnedAccounts(ctx, workspaceId, accountIds);
  await checkSavedUrl(ctx, input.url, 'url', 'The feed URL');
  const now = new Date();
  const row = await insertFeed(ctx, {
    id: crypto.randomUUID(),
    workspaceId,
    url: input.url,
    name: input.name ?? null,
    accountIds,
    template: input.template,
    mode: input.mode,
    intervalMinutes: input.intervalMinutes,
    enabled: input.enabled,
    nextPollAt: now,
    createdAt: now,
    updatedAt: now,
  });
  if (!row.enabled) return toFeedView(row);
  return (await pollFeed(ctx, row.id)).feed;
}

export async function updateFeed(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: FeedPatch,
): Promise<FeedView> {
  const row = await ownedFeed(ctx, workspaceId, id);
  const accountIds = patch.accountIds ? [...new Set(patch.accountIds)] : undefined;
  if (accountIds) await assertOwnedAccounts(ctx, workspaceId, accountIds);
  const urlChanged = patch.url !== undefined && patch.url !== row.url;
  // The URL is user-chosen: checked at save as well as on every poll (section D).
  if (urlChanged) await checkSavedUrl(ctx, patch.url!, 'url', 'The feed URL');
  const updated = await updateFeedRow(ctx, workspaceId, row.id, {
    ...patch,
    ...(accountIds ? { accountIds } : {}),
    // Another URL is another feed: its existing items are marked seen by its first poll.
    ...(urlChanged ? { primed: false, etag: null, lastModified: null, nextPollAt: new Date() } : {}),
  });
  if (!updated) throw notFound('feed');
  return toFeedView(updated);
}

export async function deleteFeed(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteFeedRow(ctx, workspaceId, id))) throw notFound('feed');
}

/** `POST /api/v1/feeds/{id}/poll`: poll now, whatever the schedule says. */
export async function pollOwnedFeed(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<FeedPollResult> {
  const row = await ownedFeed(ctx, workspaceId, id);
  return pollFeed(ctx, row.id);
}

/**
 * One poll of one feed under its lease, so that any number of instances (the in-process poller of
 * each, and manual polls) never poll a feed twice at once. An item's post and its "seen" mark are
 * written in one transaction: a poll that dies before the commit leaves the item new for the next
 * poll, one that dies after it has made the post, so an item is neither lost nor posted twice.
 * (In `now` mode the post is stored scheduled for now and the dispatcher publishes it.)
 */
export async function pollFeed(ctx: AppContext, feedId: string): Promise<FeedPollResult> {
  const owner = `feed-poll:${crypto.randomUUID()}`;
  const row = await leaseFeed(ctx, feedId, owner, pollLeaseMs);
  if (!row) {
    const current = await findFeedById(ctx, feedId);
    return { status: 'busy', newItems: 0, postIds: [], feed: toFeedView(current) };
  }
  const now = new Date();
  const next = new Date(now.getTime() + row.intervalMinutes * 60_000);
  const finish = async (result: Omit<FeedPollResult, 'feed'>, set: Parameters<typeof finishPoll>[3]) => {
    const saved = await finishPoll(ctx, row.id, owner, {
      lastPolledAt: now,
      lastStatus: result.status,
      lastError: result.error ?? null,
      nextPollAt: next,
      ...set,
    });
    return { ...result, feed: toFeedView(saved ?? row) };
  };
  try {
    const fetched = await fetchFeed(ctx, row);
    if (fetched.kind === 'not_modified')
      return await finish({ status: 'not_modified', newItems: 0, postIds: [] }, {});
    if (fetched.kind === 'failed')
      return await finish({ status: 'failed', newItems: 0, postIds: [], error: fetched.error }, {});
    let items: FeedItem[];
    try {
      items = feedItems(fetched.body);
    } catch (error) {
      return await finish(
        {
          status: 'failed',
          newItems: 0,
          postIds: [],
          error: `Not an RSS, Atom or JSON feed: ${(error as Error).message}`,
        },
        {},
      );
    }
    const validators = { etag: fetched.etag, lastModified: fetched.lastModified };
    const ids = [...new Set(items.map((i) => i.id))];
    if (!row.primed) {
      // The first poll: whatever the feed holds now is its back catalogue, seen and never posted.
      await markItemsSeen(ctx, row.id, ids);
      return await finish({ status: 'primed', newItems: 0, postIds: [] }, { ...validators, primed: true });
    }

    const known = await seenItemIds(ctx, row.id, ids);
    const seenNow = new Set<string>();
    const newItems = items.filter((i) => !known.has(i.id) && !seenNow.has(i.id) && seenNow.add(i.id));
    const toPost = newItems.slice(-maxPostsPerPoll);
    await markItemsSeen(
      ctx,
      row.id,
      newItems.slice(0, newItems.length - toPost.length).map((i) => i.id),
    );
    const postIds: string[] = [];
    const errors: string[] = [];
    for (const entry of toPost) {
      const posted = await postItem(ctx, row, entry);
      if (posted.postId) postIds.push(posted.postId);
      if (posted.error) errors.push(posted.error);
    }
    if (newItems.length > maxPostsPerPoll)
      errors.push(
        `${newItems.length - maxPostsPerPoll} older new items were marked seen without a post (at most ${maxPostsPerPoll} per poll)`,
      );
    return await finish(
      {
        status: 'updated',
        newItems: newItems.length,
        postIds,
        ...(errors.length ? { error: errors.join('; ') } : {}),
      },
      validators,
    );
  } catch (error) {
    ctx.logger.error({ err: error, feedId: row.id }, 'feed poll failed');
    return finish({ status: 'failed', newItems: 0, postIds: [], error: 'The poll failed on our side' }, {});
  }
}

/** The item was marked seen by someone else meanwhile: its post is rolled back. */
class ItemAlreadySeen extends Error {}

/**
 * Turns one new item into a post, committed together with the item's "seen" mark. An item the
 * platforms refuse (too long, no queue slot, an account gone) waits as a draft for a person; one
 * that cannot even be a draft is marked seen without a post, so it is not retried forever.
 */
async function postItem(
  ctx: AppContext,
  row: FeedRow,
  entry: FeedItem,
): Promise<{ postId?: string; error?: string }> {
  const create = (mode: DeferredMode) =>
    createDeferredPost(
      ctx,
      row.workspaceId,
      {
        message: renderTemplate(row.template, entry),
        accountIds: row.accountIds,
        media: [],
        accountOptions: {},
      },
      mode,
      async (tx, post) => {
        if (!(await markItemPosted(tx, row.id, entry.id, post.id))) throw new ItemAlreadySeen();
      },
    );
  const label = `Item "${entry.title || entry.link}"`;
  try {
    return { postId: (await create(deferredMode[row.mode])).id };
  } catch (caught) {
    if (caught instanceof ItemAlreadySeen) return {};
    if (!(caught instanceof ProblemError)) throw caught;
    const error = `${label}: ${caught.problem.detail}`;
    if (row.mode !== 'draft') {
      try {
        return { postId: (await create('draft')).id, error };
      } catch (again) {
        if (again instanceof ItemAlreadySeen) return { error };
        if (!(again instanceof ProblemError)) throw again;
      }
    }
    await markItemsSeen(ctx, row.id, [entry.id]);
    return { error };
  }
}

/** How each feed mode stores a post: `now` as scheduled for now, published by the dispatcher. */
const deferredMode: Record<FeedRow['mode'], DeferredMode> = { draft: 'draft', now: 'due', queue: 'queue' };

async function findFeedById(ctx: AppContext, feedId: string): Promise<FeedRow> {
  const row = await feedById(ctx, feedId);
  if (!row) throw notFound('feed');
  return row;
}
