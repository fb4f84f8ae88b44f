import { PlatformError } from '../../errors.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { WordPressApi } from './api.ts';

export interface UploadedImage {
  id: number;
  url: string;
}

const uploadTimeoutMs = 5 * 60_000;

/**
 * Uploads one image to the media library (`POST /wp/v2/media`, multipart `file`), with its alt
 * text as `alt_text`; answers the attachment id (for `featured_media`) and its URL (for the body).
 */
export async function uploadImage(api: WordPressApi, file: MediaFile): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', await file.blob(), safeFilename(file));
  if (file.altText) form.append('alt_text', file.altText);
  const { body } = await api.request<{ id?: unknown; source_url?: unknown }>({
    method: 'POST',
    route: '/wp/v2/media',
    form,
    operation: 'media',
    timeoutMs: uploadTimeoutMs,
  });
  if (typeof body.id !== 'number' || typeof body.source_url !== 'string') {
    throw new PlatformError('platform_unavailable', `${api.host} answered the upload without an id or URL`);
  }
  return { id: body.id, url: body.source_url };
}

/** The stored name may hold anything a user typed; WordPress needs a plain name with the right extension. */
function safeFilename(file: MediaFile): string {
  const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'image';
  const extension = extensionFor(file.contentType);
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base.replace(/\.[^.]*$/, '')}.${extension}`;
}
