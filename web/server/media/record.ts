import { createHash } from 'node:crypto';
import type { MediaObject } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import {
  insertMedia,
  type MediaRow,
  markInspected,
  mediaBySha256,
  setMediaInspection,
  setMediaSha256,
} from './repository.ts';
import { type Inspection, inspectImage } from './thumbnail.ts';
import { inspectVideo, makesPoster, PosterError } from './video-poster.ts';
import { toMediaObject } from './view.ts';

/*
 * How an upload lands in the media library (docs/media-library.md): its bytes are hashed while
 * they stream into storage (no second read), the workspace's existing media with the same digest
 * is answered instead of a copy, and a new image gets its thumbnail once (a video its poster).
 */

/** A SHA-256 fed chunk by chunk from the storage write (`onChunk`). */
export function streamingSha256() {
  const hash = createHash('sha256');
  return { onChunk: (chunk: Buffer) => void hash.update(chunk), digest: () => hash.digest('hex') };
}

export interface RecordedUpload {
  media: MediaObject;
  /** False when the workspace already had these bytes: `media` is that earlier upload. */
  created: boolean;
}

/**
 * Records a file just stored under a new key. When the workspace already has the same bytes, the
 * new copy is removed from storage and the existing media answered (200 rather than 201).
 */
export async function recordUpload(
  ctx: AppContext,
  workspaceId: string,
  stored: MediaObject,
  sha256: string,
): Promise<RecordedUpload> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await insertMedia(ctx, workspaceId, stored, sha256);
    if (row) {
      await inspectOnce(ctx, row);
      return { media: toMediaObject(ctx, row), created: true };
    }
    const existing = await mediaBySha256(ctx, workspaceId, sha256);
    if (existing) {
      await ctx.storage.delete(stored.key).catch((error: unknown) => {
        ctx.logger.warn({ err: error, key: stored.key }, 'could not remove a duplicate upload');
      });
      return { media: toMediaObject(ctx, existing), created: false };
    }
    // The existing copy was deleted between the insert and the lookup: insert again.
  }
  throw new Error('Could not record the upload');
}

/** A reserved presigned key whose bytes have now arrived through the Scheduler. */
export async function completePresignedUpload(ctx: AppContext, row: MediaRow, sha256: string): Promise<void> {
  await setMediaSha256(ctx, row, sha256);
  await inspectOnce(ctx, row);
  await markInspected(ctx, row.id);
}

/**
 * Size and thumbnail of an image, or poster, size and duration of a video (with ffmpeg), once: a
 * row that already has a thumbnail is left alone. A file that cannot be decoded keeps none
 * (logged); the upload itself stands.
 */
export async function inspectOnce(ctx: AppContext, row: MediaRow): Promise<void> {
  if (row.thumbnailKey) return;
  try {
    const inspection = await inspect(ctx, row);
    if (inspection && !(await setMediaInspection(ctx, row.id, inspection)) && inspection.thumbnailKey) {
      // Another request recorded its thumbnail first: they are the same bytes at the same key.
      ctx.logger.debug({ key: row.key }, 'thumbnail already recorded');
    }
  } catch (error) {
    if (error instanceof PosterError)
      ctx.logger.warn({ key: row.key, reason: error.message }, 'could not make a video poster');
    else ctx.logger.warn({ err: error, key: row.key }, 'could not make a thumbnail');
  }
}

function inspect(ctx: AppContext, row: MediaRow): Promise<Inspection | undefined> {
  const ffmpeg = ctx.config.ffmpeg;
  if (ffmpeg && makesPoster(row.contentType))
    return inspectVideo(ctx.storage, row.key, row.contentType, ffmpeg);
  return inspectImage(ctx.storage, row.key, row.contentType);
}
