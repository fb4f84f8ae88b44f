import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { ValidationIssue } from '../../schemas/results.ts';
import { imageSize } from './image-size.ts';
import { checkShotDimensions } from './validate.ts';

/** Enough of the file for a JPEG's frame header behind its EXIF and ICC segments (each at most 64 KB). */
const headerBytes = 256 * 1024;

/** The image's size read from the start of the stored file. */
export async function readImageSize(file: MediaFile): Promise<{ width: number; height: number } | undefined> {
  const end = Math.min(file.size, headerBytes) - 1;
  if (end < 0) return undefined;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await file.stream({ start: 0, end }))
      chunks.push(Buffer.from(chunk as Uint8Array));
  } catch (error) {
    throw new PlatformError('media_unavailable', `Could not read ${file.filename} from storage`, {
      cause: error,
      retryable: true,
    });
  }
  return imageSize(new Uint8Array(Buffer.concat(chunks)));
}

/** The dimension check of a shot's image, from the stored file's header. */
export async function checkShotImage(file: MediaFile, path = 'media[0]'): Promise<ValidationIssue[]> {
  return checkShotDimensions(await readImageSize(file), path);
}
