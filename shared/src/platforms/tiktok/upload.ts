import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { maxChunkBytes, maxChunkCount, maxFinalChunkBytes, minChunkBytes } from './limits.ts';

/** How a video is cut for FILE_UPLOAD: TikTok checks `chunk_size` and `total_chunk_count` at init. */
export interface ChunkPlan {
  chunkSize: number;
  totalChunkCount: number;
}

/**
 * TikTok's chunk rules (Content Posting API, "Media transfer guide"): a video under 5 MB, or one
 * that fits in one chunk, goes whole; otherwise chunks of `chunk_size` (5 to 64 MB), their number
 * `floor(video_size / chunk_size)`, and the last chunk takes the remainder (so it may reach
 * 128 MB). At most 1000 chunks: a bigger video gets bigger chunks.
 */
export function chunkPlan(videoSize: number, chunkBytes: number): ChunkPlan {
  if (videoSize <= chunkBytes || videoSize < minChunkBytes) {
    return { chunkSize: videoSize, totalChunkCount: 1 };
  }
  let chunkSize = chunkBytes;
  if (Math.floor(videoSize / chunkSize) > maxChunkCount) chunkSize = Math.ceil(videoSize / maxChunkCount);
  const totalChunkCount = Math.floor(videoSize / chunkSize);
  const last = videoSize - (totalChunkCount - 1) * chunkSize;
  if (chunkSize > maxChunkBytes || last > maxFinalChunkBytes) {
    throw new PlatformError('media_rejected', 'The video is too large for TikTok (at most 4 GB)', {
      retryable: false,
    });
  }
  return { chunkSize, totalChunkCount };
}

/**
 * The chunks one after another to the `upload_url` init answered: `PUT` with `Content-Range:
 * bytes first-last/total` and the video's type; TikTok answers 206 until the last, then 201.
 */
export async function uploadChunks(
  uploadUrl: string,
  video: MediaFile,
  plan: ChunkPlan,
  signal: AbortSignal,
): Promise<void> {
  for (let index = 0; index < plan.totalChunkCount; index++) {
    const start = index * plan.chunkSize;
    const end = index === plan.totalChunkCount - 1 ? video.size - 1 : start + plan.chunkSize - 1;
    const bytes = await readRange(video, start, end);
    const response = await platformFetch(uploadUrl, {
      method: 'PUT',
      headers: {
        'content-type': video.contentType,
        'content-range': `bytes ${start}-${end}/${video.size}`,
      },
      body: bytes,
      signal,
      // A 64 MB chunk takes a while on a slow uplink.
      timeoutMs: 5 * 60_000,
    });
    const last = index === plan.totalChunkCount - 1;
    if (response.status === 206 || response.status === 201 || response.status === 200) {
      await response.body?.cancel();
      if (last && response.status === 206) {
        throw new PlatformError(
          'platform_unavailable',
          'TikTok did not take the whole video (206 after the last chunk)',
        );
      }
      continue;
    }
    const answer = (await readJson(response)) as { error?: { message?: string } } | undefined;
    const said = answer?.error?.message ? `: ${answer.error.message.slice(0, 200)}` : '';
    throw new PlatformError(
      response.status >= 500 || response.status === 429 ? 'platform_unavailable' : 'media_rejected',
      `TikTok refused chunk ${index + 1} of ${plan.totalChunkCount} of "${video.filename}" (HTTP ${response.status})${said}`,
      { status: response.status },
    );
  }
}

async function readRange(video: MediaFile, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await video.stream({ start, end }))
      chunks.push(Buffer.from(chunk as Uint8Array));
  } catch (error) {
    throw new PlatformError('media_unavailable', `Could not read ${video.filename} from storage`, {
      cause: error,
      retryable: true,
    });
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  if (bytes.length !== end - start + 1) {
    throw new PlatformError('media_unavailable', `${video.filename} is shorter than its stored size`, {
      retryable: false,
    });
  }
  return bytes;
}
