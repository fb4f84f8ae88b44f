import { type PreparedPost, stagedContentKey, type TargetIntent } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { stagedHandles } from './repository.ts';

const hasVideo = (media: readonly { contentType: string }[]) =>
  media.some((m) => m.contentType.startsWith('video/'));

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
