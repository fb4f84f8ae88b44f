import { PlatformError } from '../../errors.ts';
import { platformFetch } from '../../http/fetch.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import type { RefreshingToken } from '../refreshing-token.ts';
import { pinterestCall } from './api.ts';
import type { PinterestConfig } from './config.ts';
import type { PinterestCredentials } from './options.ts';

interface MediaRegistration {
  media_id?: string;
  upload_url?: string;
  upload_parameters?: Record<string, string>;
}

/**
 * A video for a pin: `POST /v5/media` registers it and answers an upload URL with form fields
 * (a presigned storage POST), the file goes there as multipart, then `GET /v5/media/{id}` until
 * its status is `succeeded` (`registered` → `processing` → `succeeded` | `failed`).
 */
export async function uploadPinterestVideo(
  config: PinterestConfig,
  token: RefreshingToken<PinterestCredentials>,
  video: MediaFile,
  signal: AbortSignal,
  onRegistered: (mediaId: string) => void,
): Promise<string> {
  const registered = await token.use((accessToken) =>
    pinterestCall<MediaRegistration>(config.apiUrl, {
      method: 'POST',
      path: '/v5/media',
      body: { media_type: 'video' },
      accessToken,
      what: 'the video registration',
      signal,
    }),
  );
  if (!registered.media_id || !registered.upload_url) {
    throw new PlatformError(
      'platform_unavailable',
      'Pinterest answered the video registration without an upload URL',
    );
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(registered.upload_parameters ?? {})) form.append(name, value);
  // The storage service reads the fields first and the file last.
  form.append('file', await video.blob(), video.filename);
  const response = await platformFetch(registered.upload_url, {
    method: 'POST',
    body: form,
    signal,
    timeoutMs: 10 * 60_000,
  });
  await response.body?.cancel();
  if (!response.ok) {
    throw new PlatformError(
      response.status >= 500 ? 'platform_unavailable' : 'media_rejected',
      `Pinterest's storage refused the upload of "${video.filename}" (HTTP ${response.status})`,
      { status: response.status },
    );
  }
  onRegistered(registered.media_id);
  return registered.media_id;
}

/** Waits until Pinterest has processed the video; its status `failed` is a media refusal. */
export async function waitForPinterestVideo(
  config: PinterestConfig,
  token: RefreshingToken<PinterestCredentials>,
  mediaId: string,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + config.processingTimeoutMs;
  let wait = config.pollMinMs;
  for (;;) {
    const answer = await token.use((accessToken) =>
      pinterestCall<{ status?: string }>(config.apiUrl, {
        method: 'GET',
        path: `/v5/media/${encodeURIComponent(mediaId)}`,
        accessToken,
        what: 'the video status',
        signal,
      }),
    );
    if (answer.status === 'succeeded') return;
    if (answer.status === 'failed') {
      throw new PlatformError('media_rejected', 'Pinterest could not process the video', {
        retryable: false,
      });
    }
    if (Date.now() + wait > deadline) {
      throw new PlatformError(
        'timeout',
        `Pinterest was still processing the video after ${Math.round(config.processingTimeoutMs / 1000)} s`,
      );
    }
    await sleep(wait, signal);
    wait = Math.min(wait * 2, config.pollMaxMs);
  }
}
