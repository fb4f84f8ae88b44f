import type { AppContext } from '#server/context.ts';
import { decodeCursor, keysetPage } from '#server/http/cursor.ts';
import { inspectPendingInBackground } from './inspect-pending.ts';
import { listMediaPage, postsUsingMedia } from './repository.ts';
import type { LibraryMediaView, ListMediaOptions } from './schema.ts';
import { toLibraryMedia } from './view.ts';

/**
 * `GET /api/v1/media`: the workspace's library, newest first, a page at a time. `q` matches the
 * file name, alt text and tags (case-insensitive, anywhere); `tag` one tag exactly (any case).
 */
export async function listMedia(
  ctx: AppContext,
  workspaceId: string,
  options: ListMediaOptions,
): Promise<{ media: LibraryMediaView[]; nextCursor: string | null }> {
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = await listMediaPage(ctx, workspaceId, {
    limit: options.limit + 1,
    after,
    q: options.q,
    kind: options.kind,
    tag: options.tag,
  });
  const { page, nextCursor } = keysetPage(rows, options.limit, (row) => row);
  inspectPendingInBackground(ctx, page);
  const uses = await postsUsingMedia(
    ctx,
    workspaceId,
    page.map((row) => row.key),
  );
  return {
    media: page.map((row) => toLibraryMedia(ctx, row, uses.get(row.key) ?? [])),
    nextCursor,
  };
}
