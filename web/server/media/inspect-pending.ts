import { presignExpirySeconds } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { inspectOnce, streamingSha256 } from './record.ts';
import { type MediaRow, markInspected, setMediaSha256 } from './repository.ts';

/*
 * Library rows whose bytes never streamed through the Scheduler (a presigned upload the client
 * PUT straight into the S3 bucket, rows older than the library), and videos older than their
 * posters (migration 0034). Listing the library hands the page's uninspected rows here; they are
 * hashed when their digest is unknown (deduplication applies from then on, for later uploads) and
 * thumbnailed in the background, a few at a time per process, so the listing answers
 * at once and shows the result on a later load (docs/media-library.md#deduplication).
 */

/** At most this many rows are inspected at once by one process. */
const maxInFlight = 2;
const inFlight = new Set<string>();

export function inspectPendingInBackground(ctx: AppContext, rows: readonly MediaRow[]): void {
  for (const row of rows) {
    if (row.inspectedAt || inFlight.has(row.id)) continue;
    if (inFlight.size >= maxInFlight) return;
    inFlight.add(row.id);
    inspectPending(ctx, row)
      .catch((error: unknown) =>
        ctx.logger.warn({ err: error, key: row.key }, 'could not inspect a media file'),
      )
      .finally(() => inFlight.delete(row.id));
  }
}

async function inspectPending(ctx: AppContext, row: MediaRow): Promise<void> {
  const stored = await ctx.storage.head(row.key);
  if (!stored) {
    // A presign whose upload URL expired unused: nothing will arrive; stop looking.
    if (Date.now() - row.createdAt.getTime() > presignExpirySeconds * 1000) await markInspected(ctx, row.id);
    return;
  }
  // A row with its digest (a video waiting for its poster, migration 0034) is not read twice.
  if (row.sha256 === null) {
    const hash = streamingSha256();
    const body = await ctx.storage.read(row.key);
    for await (const chunk of body) hash.onChunk(chunk as Buffer);
    await setMediaSha256(ctx, row, hash.digest());
  }
  await inspectOnce(ctx, row);
  await markInspected(ctx, row.id);
}
