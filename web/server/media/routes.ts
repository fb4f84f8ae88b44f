import { byteSize, problemResponses, storageUnavailable } from '@postwave/shared/openapi/index';
import { json, unauthorized } from '#server/api/common.ts';
import { maxJsonBytes } from '#server/http/body.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { MediaKeyParam, PresignRequest, PresignResponse, UploadForm, UploadResponse } from './schema.ts';

const keyParam = MediaKeyParam;
const mediaResponses = {
  200: { description: 'The file.' },
  206: { description: 'A byte range.' },
  304: { description: 'Not modified.' },
  ...problemResponses({
    not_found: 'no media with this key',
    range_not_satisfiable: 'the range is outside the file (`Content-Range: bytes */<size>`)',
  }),
};

export const mediaRoutes = defineApiRoutes({
  uploadMedia: {
    method: 'post',
    path: '/api/v1/upload',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'uploadMedia',
    summary: 'Upload one file (multipart field `file`), streamed to storage',
    requestBody: {
      content: { 'multipart/form-data': UploadForm },
    },
    responses: {
      200: {
        description: 'The workspace already had these bytes: its existing media, nothing new stored.',
        content: { [json]: UploadResponse },
      },
      201: { description: 'Stored.', content: { [json]: UploadResponse } },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'no file in the field `file`, more than one file, or a malformed multipart body',
        payload_too_large: 'over MAX_UPLOAD_BYTES',
        unsupported_media_type:
          'the body is not `multipart/form-data`, or not a publishable type, or the declared type disagrees with the bytes',
        ...storageUnavailable,
      }),
    },
  },
  presignUpload: {
    method: 'post',
    path: '/api/v1/upload/presign',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'presignUpload',
    summary: 'A direct upload URL bound to filename, type and size (15 minutes)',
    requestBody: { content: { [json]: PresignRequest } },
    responses: {
      201: {
        description: 'PUT the exact bytes to `uploadUrl` with the returned headers.',
        content: { [json]: PresignResponse },
      },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'wrong types',
        payload_too_large: `size over the limit, or the JSON body is over ${byteSize(maxJsonBytes)}`,
        unsupported_media_type: 'type not publishable',
      }),
    },
  },
  getMedia: {
    method: 'get',
    path: '/media/{key}',
    auth: 'public',
    operationId: 'getMedia',
    summary: 'Serve stored media by its unguessable key (public, ranges and ETags)',
    parameters: [keyParam],
    responses: mediaResponses,
  },
  headMedia: {
    method: 'head',
    path: '/media/{key}',
    auth: 'public',
    operationId: 'headMedia',
    summary: 'Stored media headers only',
    parameters: [keyParam],
    responses: mediaResponses,
  },
  putSignedUpload: {
    method: 'put',
    path: '/media/{key}',
    auth: 'public',
    operationId: 'putSignedUpload',
    summary: 'Receive a presigned upload (local storage): the signature in the query is the credential',
    parameters: [keyParam],
    requestBody: { content: { '*/*': { type: 'string', contentMediaType: 'application/octet-stream' } } },
    responses: {
      201: {
        description:
          'Stored (201, as `POST /api/v1/upload` and the self-hosted server answer; S3 answers its own 200).',
        content: { [json]: UploadResponse },
      },
      ...problemResponses({
        invalid_request: 'the body is not exactly the signed size',
        forbidden: 'the signature does not verify, or the URL has expired',
        not_found: 'not a valid key',
        invalid_status: 'the URL was already used',
        unsupported_media_type: 'the Content-Type or the bytes are not the signed type',
      }),
    },
  },
});
