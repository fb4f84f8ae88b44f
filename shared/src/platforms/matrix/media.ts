import { isPlatformError, PlatformError } from '../../errors.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { type MatrixApi, segment } from './api.ts';
import { type HomeserverInfo, supportsAuthenticatedMedia } from './server.ts';

export interface MediaContent {
  msgtype: 'm.image' | 'm.video' | 'm.file';
  body: string;
  url: string;
  info: { mimetype: string; size: number };
}

const legacyUpload = '/_matrix/media/v3/upload';
const clientUpload = '/_matrix/client/v1/media/upload';

/**
 * Uploads a file to the content repository and returns its `mxc://` URI. The spec's upload is
 * `POST /_matrix/media/v3/upload` (authenticated; v1.11's authenticated media moved downloads,
 * thumbnails and the config under `/_matrix/client/v1/media/`, and deprecated the legacy prefix).
 * A server listing v1.11 or later is asked at `/_matrix/client/v1/media/upload` first, the
 * legacy path otherwise; a 404 there sends the upload to the other path, and the server's answer
 * is remembered (`clientUpload` on its info) so later uploads go straight to the path it serves.
 */
export async function uploadFile(api: MatrixApi, file: MediaFile, server: HomeserverInfo): Promise<string> {
  const upload = { body: await file.blob(), contentType: file.contentType, bytes: file.size };
  const query = `?filename=${encodeURIComponent(file.filename)}`;
  const send = (path: string) =>
    api.request<{ content_uri?: unknown }>({
      method: 'POST',
      path: `${path}${query}`,
      operation: 'upload',
      upload,
    });
  const preferClient = server.clientUpload ?? supportsAuthenticatedMedia(server.versions);
  const [first, second] = preferClient ? [clientUpload, legacyUpload] : [legacyUpload, clientUpload];
  const answer = await send(first).then(
    (found) => {
      server.clientUpload = first === clientUpload;
      return found;
    },
    (error: unknown) => {
      if (!(isPlatformError(error) && (error.status === 404 || error.status === 405))) throw error;
      server.clientUpload = second === clientUpload;
      return send(second);
    },
  );
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
