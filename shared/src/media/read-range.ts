import { PlatformError } from '../errors.ts';
import type { MediaFile } from './media-file.ts';

/** Bytes `start..end` (inclusive) of a stored file, for chunked uploads; failures are classified. */
export async function readRange(
  file: MediaFile,
  start: number,
  end: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await file.stream({ start, end }))
      chunks.push(Buffer.from(chunk as Uint8Array));
  } catch (error) {
    throw new PlatformError('media_unavailable', `Could not read ${file.filename} from storage`, {
      cause: error,
      retryable: true,
    });
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  if (bytes.length !== end - start + 1) {
    throw new PlatformError('media_unavailable', `${file.filename} is shorter than its stored size`, {
      retryable: false,
    });
  }
  return bytes;
}
