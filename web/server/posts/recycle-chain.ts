import type { AppContext } from '#server/context.ts';
import type { PostStatus, RecycleSettings } from '#server/db/schema.ts';
import { getPost } from './get-post.ts';
import { listPostEvents } from './history.ts';
import { selectRecycledCopies } from './repository.ts';
import type { PostView } from './schema.ts';

export interface RecycleChain {
  originalId: string;
  /** The original's settings; null once turned off. */
  recycle: RecycleSettings | null;
  copies: {
    id: string;
    status: PostStatus;
    index: number;
    scheduledAt: string | null;
    postedAt: string | null;
  }[];
  /** Why the chain stopped or left an account out, oldest first (the original's timeline). */
  stops: { at: string; reason: string; description: string; accountId?: string }[];
}

/** The recycling chain a post belongs to (docs/recycling.md), or null when it has none. */
export async function getRecycleChain(
  ctx: AppContext,
  workspaceId: string,
  post: PostView,
): Promise<RecycleChain | null> {
  const originalId = post.recycledFrom ?? post.id;
  const [copies, events, original] = await Promise.all([
    selectRecycledCopies(ctx, workspaceId, originalId),
    listPostEvents(ctx, workspaceId, originalId),
    post.recycledFrom ? getPost(ctx, workspaceId, originalId) : post,
  ]);
  const stopped = events.some((e) => e.action.startsWith('recycle_'));
  if (!post.recycle && !post.recycledFrom && copies.length === 0 && !stopped) return null;
  return {
    originalId,
    recycle: original.recycle,
    copies: copies.map((c) => ({
      id: c.id,
      status: c.status,
      index: c.recycleIndex ?? 0,
      scheduledAt: c.scheduledAt?.toISOString() ?? null,
      postedAt: c.postedAt?.toISOString() ?? null,
    })),
    stops: events
      .filter((e) => e.action === 'recycle_stopped')
      .map((e) => ({
        at: e.createdAt,
        reason: e.event.recycle?.reason ?? '',
        description: e.description,
        ...(e.event.accountId ? { accountId: e.event.accountId } : {}),
      })),
  };
}
