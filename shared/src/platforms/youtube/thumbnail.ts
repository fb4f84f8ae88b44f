import type { MediaFile } from '../../media/media-file.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import { failure, googleFetch } from './google-fetch.ts';

/** thumbnails.set: the image bytes as the request body (at most 2 MB, so read whole). */
export async function setThumbnail(options: {
  uploadUrl: string;
  token: GoogleAccessToken;
  videoId: string;
  image: MediaFile;
  signal: AbortSignal;
}): Promise<void> {
  const url = new URL(`${options.uploadUrl}/thumbnails/set`);
  url.searchParams.set('videoId', options.videoId);
  url.searchParams.set('uploadType', 'media');
  const body = await (await options.image.blob()).arrayBuffer();
  const response = await googleFetch(
    options.token,
    url,
    { method: 'POST', headers: { 'content-type': options.image.contentType }, body, signal: options.signal },
    'the thumbnail',
  );
  if (!response.ok) throw await failure(response, 'the thumbnail');
  await response.body?.cancel();
}
