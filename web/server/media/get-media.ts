import type { MediaObject } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { mediaById } from './repository.ts';
import { toMediaObject } from './view.ts';

/** One library media as a post references it, with the library's alt text; undefined when not this workspace's. */
export async function libraryMediaById(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<(MediaObject & { altText?: string }) | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await mediaById(ctx, workspaceId, id);
  if (!row) return undefined;
  return { ...toMediaObject(ctx, row), ...(row.altText ? { altText: row.altText } : {}) };
}
