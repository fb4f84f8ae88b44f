import { PlatformError } from '../../errors.ts';
import { readTextCapped } from '../../http/capped-body.ts';
import { platformFetch } from '../../http/fetch.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { RedditApi } from './api.ts';

/** `POST /api/media/asset.json`: a lease to upload one file to Reddit's media bucket. */
interface AssetLease {
  args?: { action?: string; fields?: { name?: string; value?: string }[] };
  asset?: { asset_id?: string; websocket_url?: string };
}

/**
 * A video post needs a poster image (`video_poster_url`); Postwave has no frame of the video, so
 * a plain dark 16×9 PNG stands in, as Reddit's own clients do without one (docs/platforms/reddit.md).
 */
const defaultPoster = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAE0lEQVR4nGOQkpImCTGMahgUGgBJ2yxx7kPvzgAAAABJRU5ErkJggg==',
  'base64',
);

export interface UploadedAsset {
  url: string;
  assetId: string;
}

/**
 * Reddit's media asset lease: ask for a lease naming the file and its type, then POST the file to
 * the S3-style form it returns (every field as given, the file last). The bucket answers 201 with
 * `<Location>` (or 204); the media URL is that location, else `<action>/<key>`.
 */
export async function uploadAsset(
  api: RedditApi,
  file: { filename: string; contentType: string; blob: () => Promise<Blob> },
  signal: AbortSignal,
): Promise<UploadedAsset> {
  const lease = await api.call<AssetLease>(
    '/api/media/asset.json',
    { form: { filepath: file.filename, mimetype: file.contentType } },
    'the media upload lease',
  );
  const action = lease.args?.action;
  const fields = lease.args?.fields ?? [];
  const assetId = lease.asset?.asset_id;
  if (!action || !assetId)
    throw new PlatformError('platform_unavailable', 'Reddit answered the media lease without an upload form');
  // Reddit names the bucket protocol-relative (`//reddit-uploaded-media.s3-accelerate.amazonaws.com`).
  const target = new URL(action.startsWith('//') ? `${api.protocol}${action}` : action);
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new PlatformError('platform_unavailable', 'Reddit answered an upload form that is not http(s)');
  const form = new FormData();
  for (const field of fields) if (field.name) form.append(field.name, field.value ?? '');
  form.append('file', await file.blob(), file.filename);
  const response = await platformFetch(target, {
    method: 'POST',
    body: form,
    signal,
    timeoutMs: 10 * 60_000,
  });
  const text = await readTextCapped(response, 64 * 1024).catch(() => '');
  if (!response.ok) {
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    if (response.status >= 500)
      throw new PlatformError(
        'platform_unavailable',
        `Reddit's media storage is unavailable (HTTP ${response.status})`,
      );
    throw new PlatformError(
      'media_rejected',
      `Reddit's media storage refused "${file.filename}" (HTTP ${response.status}${code ? `, ${code}` : ''})`,
      { status: response.status },
    );
  }
  const location = /<Location>([^<]+)<\/Location>/.exec(text)?.[1] ?? response.headers.get('location');
  const key = fields.find((f) => f.name === 'key')?.value;
  const url = location
    ? decodeURIComponent(unescapeXml(location))
    : key
      ? `${target.origin}${target.pathname.replace(/\/$/, '')}/${key}`
      : undefined;
  if (!url)
    throw new PlatformError('platform_unavailable', 'Reddit stored the media but named no URL for it');
  return { url, assetId };
}

/** The poster of a video post. */
export function uploadPoster(api: RedditApi, signal: AbortSignal): Promise<UploadedAsset> {
  return uploadAsset(
    api,
    {
      filename: 'poster.png',
      contentType: 'image/png',
      blob: async () => new Blob([new Uint8Array(defaultPoster)], { type: 'image/png' }),
    },
    signal,
  );
}

export function uploadMedia(api: RedditApi, media: MediaFile, signal: AbortSignal): Promise<UploadedAsset> {
  return uploadAsset(api, media, signal);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"');
}
