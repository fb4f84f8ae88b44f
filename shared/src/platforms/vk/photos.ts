import { PlatformError } from '../../errors.ts';
import { platformFetch, readJson } from '../../http/fetch.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { vkCall } from './api.ts';
import type { VkConfig } from './config.ts';

const uploadTimeoutMs = 5 * 60_000;

/**
 * One photo for a wall post, the way VK documents it: `photos.getWallUploadServer` (with
 * `group_id` for a community wall), the file as the multipart `photo` field to the upload URL VK
 * answered, then `photos.saveWallPhoto` with what the upload answered. Returns the attachment
 * (`photo<owner>_<id>`).
 */
export async function uploadWallPhoto(
  config: VkConfig,
  token: string,
  ownerId: number,
  file: MediaFile,
  signal: AbortSignal,
): Promise<string> {
  const group = ownerId < 0 ? { group_id: -ownerId } : {};
  const server = await vkCall<{ upload_url?: string }>(
    config,
    token,
    'photos.getWallUploadServer',
    group,
    'the photo upload server request',
    signal,
  );
  if (!server.upload_url || !/^https?:\/\//.test(server.upload_url))
    throw new PlatformError('platform_unavailable', 'VK answered without an upload URL');
  const form = new FormData();
  const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'photo';
  form.append(
    'photo',
    await file.blob(),
    base.includes('.') ? base : `${base}.${extensionFor(file.contentType)}`,
  );
  // The upload URL is VK's own upload host, named by VK's answer: the default fetch.
  const response = await platformFetch(server.upload_url, {
    method: 'POST',
    body: form,
    signal,
    timeoutMs: uploadTimeoutMs,
  });
  const uploaded = (await readJson(response)) as
    | { server?: number | string; photo?: string; hash?: string; error?: unknown }
    | undefined;
  if (!response.ok)
    throw new PlatformError('platform_unavailable', `VK's upload server answered HTTP ${response.status}`, {
      status: response.status,
    });
  if (!uploaded?.photo || uploaded.photo === '[]' || uploaded.server === undefined || !uploaded.hash)
    throw new PlatformError('media_rejected', `VK's upload server did not take "${file.filename}"`);
  const saved = await vkCall<{ id?: number; owner_id?: number }[]>(
    config,
    token,
    'photos.saveWallPhoto',
    { ...group, server: uploaded.server, photo: uploaded.photo, hash: uploaded.hash },
    'the photo upload',
    signal,
  );
  const photo = Array.isArray(saved) ? saved[0] : undefined;
  if (typeof photo?.id !== 'number' || typeof photo.owner_id !== 'number')
    throw new PlatformError('platform_unavailable', 'VK saved the photo without its id');
  return `photo${photo.owner_id}_${photo.id}`;
}
