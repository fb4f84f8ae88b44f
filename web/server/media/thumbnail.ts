import { Readable } from 'node:stream';
import type { Storage } from '@postwave/shared';
import sharp from 'sharp';

/** The longest side of a library thumbnail, in pixels (the grid shows them at about 160 px, 2x). */
export const thumbnailSize = 320;

/** A thumbnail is stored beside its media under the media's key plus this suffix (same storage, same read path). */
export const thumbnailSuffix = '.thumb.webp';

/** Decoding refuses images past this many pixels (a decompression bomb), as sharp's own default does. */
export const maxInputPixels = 268_402_689;

export interface Inspection {
  width?: number | undefined;
  height?: number | undefined;
  /** A video's length (its container's duration). */
  durationMs?: number | undefined;
  thumbnailKey?: string | undefined;
}

/**
 * An image's size and a small WebP thumbnail, stored beside it. Returns `undefined` for other
 * types (a video's poster is video-poster.ts's); throws when the image cannot be decoded (the
 * caller logs it and goes on without a thumbnail).
 */
export async function inspectImage(
  storage: Storage,
  key: string,
  contentType: string,
): Promise<Inspection | undefined> {
  if (!contentType.startsWith('image/')) return undefined;
  return storeThumbnail(storage, key, await storage.read(key));
}

/**
 * Makes the WebP thumbnail of an image (a stream, or the bytes of a video's frame) and stores it
 * under `key` plus `thumbnailSuffix`; answers the image's size as it is seen.
 */
export async function storeThumbnail(
  storage: Storage,
  key: string,
  source: Readable | Buffer,
): Promise<{ width: number | undefined; height: number | undefined; thumbnailKey: string }> {
  // The first frame of an animation; orientation applied so the thumbnail stands the right way up.
  const pipeline = sharp({ limitInputPixels: maxInputPixels, animated: false })
    .autoOrient()
    .resize(thumbnailSize, thumbnailSize, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 });
  const metadata = pipeline.clone().metadata();
  if (Buffer.isBuffer(source)) pipeline.end(source);
  else {
    source.pipe(pipeline);
    source.once('error', (error) => pipeline.destroy(error));
  }
  const [thumbnail, info] = await Promise.all([pipeline.toBuffer(), metadata]);
  const rotated = (info.orientation ?? 1) >= 5;
  const thumbnailKey = `${key}${thumbnailSuffix}`;
  await storage.put(thumbnailKey, Readable.from([thumbnail]), {
    contentType: 'image/webp',
    maxBytes: thumbnail.length,
  });
  return {
    width: rotated ? info.height : info.width,
    height: rotated ? info.width : info.height,
    thumbnailKey,
  };
}
