import { MediaKey, PresignRequest, PresignResponse, UploadResponse } from '@postwave/shared';
import { problemResponses, type RouteSpec, storageUnavailable } from '@postwave/shared/openapi/index';
import { type ApiAuth, internal, jsonCharset, jsonTooLarge, unauthorized } from './common.ts';

/** Getting media in: a multipart upload, or a presigned URL to PUT the bytes to. */
export function uploadRoutes(maxUploadBytes: number) {
  return {
    uploadMedia: {
      method: 'post',
      path: '/api/v1/upload',
      auth: 'apiKey',
      operationId: 'uploadMedia',
      summary: 'Upload a media file',
      description: [
        'One file in the multipart field `file`, streamed to storage (never buffered whole).',
        'The type is sniffed from the bytes: a declared part type that disagrees, or a type no platform accepts',
        '(anything but JPEG, PNG, GIF, WebP, MP4, QuickTime, WebM and PDF), is 415.',
        `Files over \`MAX_UPLOAD_BYTES\` (here ${maxUploadBytes} bytes) are 413 and nothing is kept.`,
        'With object storage configured the file goes to the bucket; otherwise to local disk, served at `/media/{key}`.',
      ].join(' '),
      tags: ['Media'],
      requestBody: {
        content: {
          'multipart/form-data': {
            type: 'object',
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
          },
        },
      },
      responses: {
        201: { description: 'Stored.', content: { 'application/json': UploadResponse } },
        ...problemResponses({
          invalid_request: 'no file in the field `file`, more than one file, or a malformed multipart body',
          ...unauthorized,
          payload_too_large: 'the file is over `MAX_UPLOAD_BYTES`; nothing was stored',
          unsupported_media_type:
            'the body is not `multipart/form-data`, or the bytes are not an accepted type or disagree with the declared type',
          ...internal,
          ...storageUnavailable,
        }),
      },
    },

    presignUpload: {
      method: 'post',
      path: '/api/v1/upload/presign',
      auth: 'apiKey',
      operationId: 'presignUpload',
      summary: 'Get a direct upload URL',
      description: [
        'The URL is bound to a key derived from `filename`, to `contentType` and to `size`, and is valid 15 minutes.',
        'PUT exactly those bytes with the returned headers, then pass the returned `media` to validation or posting.',
        'With object storage configured it is an S3 presigned URL (browsers need a bucket CORS rule allowing PUT and',
        'the Content-Type header from their origin); otherwise it points at `PUT /media/{key}` on this server,',
        'signed with an HMAC over key, type, size and expiry.',
      ].join(' '),
      tags: ['Media'],
      requestBody: { content: { 'application/json': PresignRequest } },
      responses: {
        201: { description: 'Upload URL issued.', content: { 'application/json': PresignResponse } },
        ...problemResponses({
          invalid_request: 'the body is malformed',
          ...unauthorized,
          payload_too_large: `\`size\` is over \`MAX_UPLOAD_BYTES\`, or ${jsonTooLarge}`,
          unsupported_media_type: `\`contentType\` is not an accepted media type, or ${jsonCharset}`,
          ...internal,
        }),
      },
    },
  } satisfies Record<string, RouteSpec<ApiAuth>>;
}

const keyParameter = {
  name: 'key',
  in: 'path' as const,
  description: 'The media key from the media object. Anything else (`..`, slashes, encoded or not) is 404.',
  schema: MediaKey,
};

const mediaGet = (method: 'get' | 'head'): RouteSpec<ApiAuth> => ({
  method,
  path: '/media/{key}',
  auth: 'public',
  operationId: method === 'get' ? 'getMedia' : 'headMedia',
  summary: method === 'get' ? 'Download a stored media file' : 'Media file metadata',
  description:
    'No authentication: keys are unguessable. Supports a single byte `Range`, `ETag` / `If-None-Match` and ' +
    '`Last-Modified` / `If-Modified-Since` (304); files never change, so they are cacheable for a year.',
  tags: ['Media'],
  parameters: [
    keyParameter,
    {
      name: 'Range',
      in: 'header',
      description: 'One range, e.g. `bytes=0-1023`.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    200: {
      description: 'The file.',
      content: { '*/*': { type: 'string', contentMediaType: 'application/octet-stream' } },
    },
    206: { description: 'The requested range.' },
    304: { description: 'Not modified.' },
    ...problemResponses({ not_found: 'no media with this key' }),
    ...problemResponses({
      range_not_satisfiable: 'the range is outside the file (`Content-Range: bytes */<size>`)',
    }),
  },
});

/** The stored files under `/media/{key}`: read them, and receive a self-signed upload. */
export const mediaFileRoutes = () =>
  ({
    getMedia: mediaGet('get'),
    headMedia: mediaGet('head'),

    putSignedUpload: {
      method: 'put',
      path: '/media/{key}',
      auth: 'public',
      operationId: 'putSignedUpload',
      summary: 'Receive a self-signed upload (local storage)',
      description:
        'The `uploadUrl` a presign returns when no object storage is configured. The signature in the query is the ' +
        'credential (no API key). Accepts one PUT of exactly the signed bytes with the signed Content-Type before ' +
        'expiry; anything else is refused and nothing is stored.',
      tags: ['Media'],
      parameters: [
        keyParameter,
        ...['type', 'size', 'expires', 'signature'].map((name) => ({
          name,
          in: 'query' as const,
          required: true,
          description: 'Copied from the presign `uploadUrl`.',
          schema: { type: 'string' },
        })),
      ],
      requestBody: { content: { '*/*': { type: 'string', contentMediaType: 'application/octet-stream' } } },
      responses: {
        201: { description: 'Stored.', content: { 'application/json': UploadResponse } },
        ...problemResponses({
          invalid_request: 'the body is not exactly the signed size',
          forbidden: 'the signature does not verify, or the URL has expired',
          not_found: 'not a valid key, or uploads go to object storage on this server',
          invalid_status: 'the URL was already used',
          unsupported_media_type: 'the Content-Type or the bytes are not the signed type',
          ...internal,
        }),
      },
    },
  }) satisfies Record<string, RouteSpec<ApiAuth>>;
