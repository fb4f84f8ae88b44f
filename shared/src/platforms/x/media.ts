import { buffer } from 'node:stream/consumers';
import { PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import { xFetch } from './api.ts';
import type { XConfig } from './config.ts';
import { takesAltText } from './limits.ts';
import type { XAccessToken } from './token.ts';

interface ProcessingInfo {
  state?: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  progress_percent?: number;
  error?: { code?: number; name?: string; message?: string };
}

interface MediaAnswer {
  data?: { id?: string; media_key?: string; expires_after_secs?: number; processing_info?: ProcessingInfo };
}

export function mediaCategory(file: Pick<MediaFile, 'kind'>): 'tweet_image' | 'tweet_gif' | 'tweet_video' {
  if (file.kind === 'gif') return 'tweet_gif';
  if (file.kind === 'video') return 'tweet_video';
  return 'tweet_image';
}

/**
 * Media upload v2: initialize, append the bytes in segments, finalize, then poll STATUS while
 * X processes a video or GIF. Returns the media id once it can be attached to a post.
 */
export async function uploadXMedia(
  file: MediaFile,
  token: XAccessToken,
  config: XConfig,
  signal: AbortSignal,
): Promise<string> {
  const api = config.apiUrl;
  const what = `the media upload of "${file.filename}"`;
  const call = <T>(url: string, init: Parameters<typeof xFetch>[2]) =>
    xFetch<T>(token, url, { signal, ...init, what }, config.maxRateLimitWaitMs);

  const initialized = await call<MediaAnswer>(`${api}/2/media/upload/initialize`, {
    method: 'POST',
    what,
    json: { media_type: file.contentType, total_bytes: file.size, media_category: mediaCategory(file) },
  });
  const id = initialized.data.data?.id;
  if (!id) throw new PlatformError('platform_unavailable', 'X answered the media upload without a media id');

  const segments = Math.max(1, Math.ceil(file.size / config.chunkBytes));
  for (let index = 0; index < segments; index++) {
    const start = index * config.chunkBytes;
    const end = Math.min(file.size, start + config.chunkBytes) - 1;
    const bytes = file.size === 0 ? Buffer.alloc(0) : await buffer(await file.stream({ start, end }));
    // A FormData body can be sent again as is when xFetch refreshes the token or waits out a limit.
    const body = new FormData();
    body.set('segment_index', String(index));
    body.set('media', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), file.filename);
    await call(`${api}/2/media/upload/${encodeURIComponent(id)}/append`, { method: 'POST', what, body });
  }

  const finalized = await call<MediaAnswer>(`${api}/2/media/upload/${encodeURIComponent(id)}/finalize`, {
    method: 'POST',
    what,
  });
  let info = finalized.data.data?.processing_info;
  const deadline = Date.now() + config.processingTimeoutMs;
  while (info && (info.state === 'pending' || info.state === 'in_progress')) {
    const wait = Math.min(config.pollMaxMs, Math.max(config.pollMinMs, (info.check_after_secs ?? 1) * 1000));
    if (Date.now() + wait > deadline) {
      throw new PlatformError(
        'timeout',
        `X was still processing "${file.filename}" after ${Math.round(config.processingTimeoutMs / 1000)} s`,
      );
    }
    await sleep(wait, signal);
    const status = new URL(`${api}/2/media/upload`);
    status.searchParams.set('command', 'STATUS');
    status.searchParams.set('media_id', id);
    const polled = await call<MediaAnswer>(status.toString(), { method: 'GET', what });
    info = polled.data.data?.processing_info;
  }
  if (info?.state === 'failed') {
    const reason = info.error?.message ?? info.error?.name ?? 'unknown reason';
    throw new PlatformError('media_rejected', `X could not process "${file.filename}": ${reason}`);
  }
  return id;
}

/**
 * Sets an uploaded image's or GIF's alt text: `POST /2/media/metadata`
 * `{ id, metadata: { alt_text: { text } } }` (up to 1000 characters). X documents alt text for
 * images and GIFs; a video's is not sent (validation warns).
 */
export async function setXAltText(
  id: string,
  file: MediaFile,
  token: XAccessToken,
  config: XConfig,
  signal: AbortSignal,
): Promise<void> {
  if (!file.altText || !takesAltText(file)) return;
  await xFetch(
    token,
    `${config.apiUrl}/2/media/metadata`,
    {
      method: 'POST',
      json: { id, metadata: { alt_text: { text: file.altText } } },
      signal,
      what: `the alt text of "${file.filename}"`,
    },
    config.maxRateLimitWaitMs,
  );
}
