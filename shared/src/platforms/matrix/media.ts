import { isPlatformError, PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { type MatrixApi, segment } from './api.ts';
import { supportsAuthenticatedMedia } from './server.ts';

export interface MediaContent {
  msgtype: 'm.image' | 'm.video' | 'm.file';
  body: string;
  url: string;
  info: { mimetype: string; size: number };
}

/**
 * Uploads a file to the content repository and returns its `mxc://` URI. The spec's upload is
 * `POST /_matrix/media/v3/upload` (authenticated, unchanged by v1.11's authenticated media);
 * a server that retired the legacy media prefix answers 404, and the client-API location is
 * tried instead.
 */
export async function uploadFile(api: MatrixApi, file: MediaFile): Promise<string> {
  const upload = { body: await file.blob(), contentType: file.contentType, bytes: file.size };
  const query = `?filename=${encodeURIComponent(file.filename)}`;
  const send = (path: string) =>
    api.request<{ content_uri?: unknown }>({
      method: 'POST',
      path: `${path}${query}`,
      operation: 'upload',
      upload,
    });
  const answer = await send('/_matrix/media/v3/upload').catch((error: unknown) => {
    if (isPlatformError(error) && (error.status === 404 || error.status === 405))
      return send('/_matrix/client/v1/media/upload');
    throw error;
  });
  const uri = answer.content_uri;
  if (typeof uri !== 'string' || !/^mxc:\/\/[^/]+\/\S+$/.test(uri)) {
    throw new PlatformError(
      'platform_unavailable',
      'The homeserver stored the file but returned no mxc:// URI',
    );
  }
  return uri;
}

/** The event of one uploaded file: its alt text (or file name) as `body`, with its type and size. */
export function mediaContent(file: MediaFile, uri: string): MediaContent {
  const msgtype =
    file.kind === 'image' || file.kind === 'gif' ? 'm.image' : file.kind === 'video' ? 'm.video' : 'm.file';
  const info = { mimetype: file.contentType, size: file.size };
  // `body` describes the file for clients that cannot show it (and screen readers): the alt text
  // where there is one. A `filename` beside a different body would make the body a caption (v1.10).
  if (msgtype !== 'm.file' && file.altText) return { msgtype, body: file.altText, url: uri, info };
  return { msgtype, body: file.filename, url: uri, info };
}

/**
 * The largest upload the homeserver takes (`m.upload.size`), or undefined when it does not say:
 * `/_matrix/client/v1/media/config` on v1.11 servers, the deprecated media path before.
 */
export async function uploadLimit(api: MatrixApi, versions: readonly string[]): Promise<number | undefined> {
  const path = supportsAuthenticatedMedia(versions)
    ? '/_matrix/client/v1/media/config'
    : '/_matrix/media/v3/config';
  const answer = await api
    .request<Record<string, unknown>>({ method: 'GET', path, operation: 'server' })
    .catch(() => undefined);
  const size = answer?.['m.upload.size'];
  return typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : undefined;
}

/** The matrix.to link of an event (`via` the room's server, where the id names one). */
export function eventLink(roomId: string, eventId: string): string {
  const server = roomId.includes(':') ? roomId.slice(roomId.indexOf(':') + 1) : undefined;
  return `https://matrix.to/#/${segment(roomId)}/${segment(eventId)}${server ? `?via=${encodeURIComponent(server)}` : ''}`;
}
