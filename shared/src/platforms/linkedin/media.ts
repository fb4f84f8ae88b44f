import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { readRange } from '../../media/read-range.ts';
import { sleep } from '../../publish/retry.ts';
import { type LinkedInApi, urnPath } from './api.ts';

interface InitializedImage {
  value?: { uploadUrl?: string; image?: string };
}
interface InitializedVideo {
  value?: {
    video?: string;
    uploadToken?: string;
    uploadInstructions?: { uploadUrl?: string; firstByte?: number; lastByte?: number }[];
  };
}
interface VideoStatus {
  status?: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';
  processingFailureReason?: string;
}

/** Time per upload on top of a minute: a slow link must not look like a dead one. */
const uploadTimeoutMs = (bytes: number) => 60_000 + Math.ceil(bytes / 100);

/** Images API: initialize for the author, then PUT the bytes to the URL LinkedIn returns. */
export async function uploadImage(api: LinkedInApi, author: string, file: MediaFile): Promise<string> {
  const init = await api.json<InitializedImage>(
    '/rest/images?action=initializeUpload',
    { method: 'POST', json: { initializeUploadRequest: { owner: author } } },
    'the image upload',
  );
  const { uploadUrl, image } = init.value ?? {};
  if (!uploadUrl || !image)
    throw new PlatformError('platform_unavailable', 'LinkedIn gave no image upload URL');
  const response = await api.upload(
    uploadUrl,
    await readBlob(file),
    'the image upload',
    uploadTimeoutMs(file.size),
  );
  await response.body?.cancel();
  return image;
}

/**
 * Videos API: initialize with the size, PUT each part LinkedIn asks for (4 MiB ranges, read
 * from storage one at a time), finalize with the parts' ETags, then wait until the video is
 * AVAILABLE: a post that references a video still processing is refused.
 */
export async function uploadVideo(
  api: LinkedInApi,
  author: string,
  file: MediaFile,
  polling: { intervalMs: number; timeoutMs: number; signal: AbortSignal },
): Promise<string> {
  const init = await api.json<InitializedVideo>(
    '/rest/videos?action=initializeUpload',
    {
      method: 'POST',
      json: {
        initializeUploadRequest: {
          owner: author,
          fileSizeBytes: file.size,
          uploadCaptions: false,
          uploadThumbnail: false,
        },
      },
    },
    'the video upload',
  );
  const { video, uploadToken = '', uploadInstructions = [] } = init.value ?? {};
  if (!video || uploadInstructions.length === 0) {
    throw new PlatformError('platform_unavailable', 'LinkedIn gave no video upload instructions');
  }
  const partIds: string[] = [];
  for (const part of uploadInstructions) {
    const { uploadUrl, firstByte, lastByte } = part;
    if (!uploadUrl || firstByte === undefined || lastByte === undefined) {
      throw new PlatformError('platform_unavailable', 'LinkedIn gave a malformed video upload instruction');
    }
    const bytes = await readRange(file, firstByte, lastByte);
    const response = await api.upload(uploadUrl, bytes, 'the video upload', uploadTimeoutMs(bytes.length));
    await response.body?.cancel();
    const etag = response.headers.get('etag');
    if (!etag)
      throw new PlatformError('platform_unavailable', 'LinkedIn stored a video part without an ETag');
    partIds.push(etag);
  }
  const finalized = await api.request(
    '/rest/videos?action=finalizeUpload',
    { method: 'POST', json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: partIds } } },
    'the video upload',
  );
  await finalized.body?.cancel();
  await waitAvailable(api, video, polling);
  return video;
}

async function waitAvailable(
  api: LinkedInApi,
  video: string,
  polling: { intervalMs: number; timeoutMs: number; signal: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + polling.timeoutMs;
  for (;;) {
    const state = await api.json<VideoStatus>(`/rest/videos/${urnPath(video)}`, {}, 'the video status');
    if (state.status === 'AVAILABLE') return;
    if (state.status === 'PROCESSING_FAILED') {
      throw new PlatformError(
        'media_rejected',
        `LinkedIn could not process the video${state.processingFailureReason ? `: ${state.processingFailureReason}` : ''}`,
      );
    }
    if (Date.now() + polling.intervalMs > deadline) {
      throw new PlatformError(
        'timeout',
        `LinkedIn was still processing the video after ${polling.timeoutMs} ms`,
        {
          retryable: false,
        },
      );
    }
    await sleep(polling.intervalMs, polling.signal);
  }
}

async function readBlob(file: MediaFile): Promise<Blob> {
  try {
    return await file.blob();
  } catch (error) {
    throw new PlatformError('media_unavailable', `Could not read ${file.filename} from storage`, {
      cause: error,
      retryable: true,
    });
  }
}
