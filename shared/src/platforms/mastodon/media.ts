import { PlatformError } from '../../errors.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import type { MastodonApi } from './api.ts';

interface MediaAttachment {
  id: string;
  url: string | null;
}

export interface MediaPolling {
  timeoutMs: number;
  firstIntervalMs: number;
  signal?: AbortSignal;
}

const uploadTimeoutMs = 10 * 60_000;

/**
 * Uploads one file and waits until the server has processed it: Mastodon refuses a status
 * whose media is still processing. 200 means ready; 202 means poll GET /api/v1/media/:id,
 * which answers 206 until the file is ready.
 */
export async function uploadMedia(
  api: MastodonApi,
  file: MediaFile,
  description: string | undefined,
  polling: MediaPolling,
): Promise<string> {
  const form = new FormData();
  form.append('file', await file.blob(), safeFilename(file));
  if (description) form.append('description', description);
  const uploaded = await api.request<MediaAttachment>({
    method: 'POST',
    path: '/api/v2/media',
    operation: 'media',
    form,
    timeoutMs: uploadTimeoutMs,
  });
  if (!uploaded.body.id)
    throw new PlatformError('platform_unavailable', `${api.platformName} answered the upload without an id`);
  if (uploaded.status === 200 && uploaded.body.url) return uploaded.body.id;
  await waitUntilProcessed(api, uploaded.body.id, polling);
  return uploaded.body.id;
}

async function waitUntilProcessed(api: MastodonApi, id: string, polling: MediaPolling): Promise<void> {
  const giveUpAt = Date.now() + polling.timeoutMs;
  let interval = polling.firstIntervalMs;
  for (;;) {
    await sleep(Math.min(interval, Math.max(0, giveUpAt - Date.now())), polling.signal);
    const answer = await api.request<MediaAttachment>({
      method: 'GET',
      path: `/api/v1/media/${encodeURIComponent(id)}`,
      operation: 'media',
    });
    if (answer.status === 200 && answer.body.url) return;
    if (Date.now() >= giveUpAt) {
      throw new PlatformError(
        'timeout',
        `${api.platformName} was still processing the media after ${Math.round(polling.timeoutMs / 1000)} s`,
      );
    }
    interval = Math.min(interval * 1.5, 5_000);
  }
}

/** The stored name may hold anything a user typed; the server only needs a sane name with the right extension. */
function safeFilename(file: MediaFile): string {
  const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'media';
  return base.includes('.') ? base : `${base}.${extensionFor(file.contentType)}`;
}
