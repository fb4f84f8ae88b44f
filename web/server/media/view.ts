import type { MediaObject } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { MediaRow } from './repository.ts';
import type { LibraryMediaView } from './schema.ts';

export function toMediaObject(ctx: AppContext, row: MediaRow): MediaObject {
  return {
    id: row.id,
    key: row.key,
    url: ctx.storage.publicUrl(row.key),
    filename: row.filename,
    contentType: row.contentType,
    size: row.size,
    storage: row.storage,
  };
}

/** A media library entry: the media object with what the library knows about it. */
export function toLibraryMedia(
  ctx: AppContext,
  row: MediaRow,
  usedBy: { postId: string; status: string }[],
): LibraryMediaView {
  return {
    ...toMediaObject(ctx, row),
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
    ...(row.durationMs !== null ? { durationMs: row.durationMs } : {}),
    ...(row.altText ? { altText: row.altText } : {}),
    tags: row.tags,
    sha256: row.sha256,
    ...(row.thumbnailKey ? { thumbnailUrl: ctx.storage.publicUrl(row.thumbnailKey) } : {}),
    createdAt: row.createdAt.toISOString(),
    usedBy,
  };
}
