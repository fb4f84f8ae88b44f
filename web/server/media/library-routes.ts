import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { LibraryMedia, ListMediaQuery, MediaPage, MediaPatch, maxMediaPage, mediaKinds } from './schema.ts';

/*
 * The media library (docs/media-library.md). Reading it is for every member; uploading (and so
 * adding to it) is `posts.draft` like writing a draft. Its metadata (alt text that becomes every
 * post's default, tags, names) and deleting are shared by everyone's posts, so they need the role
 * that may edit and delete any post: editor (`posts.publish`).
 */
export const mediaLibraryRoutes = defineApiRoutes({
  listMedia: {
    method: 'get',
    path: '/api/v1/media',
    auth: 'caller',
    permission: 'read',
    operationId: 'listMedia',
    summary: 'The workspace’s media library, newest first',
    description:
      'Every upload (multipart, presign, from a URL, imports) is in the library. `q` matches the file name, alt text and tags (case-insensitive, anywhere in them); `tag` one tag exactly (any case); `kind` the type (`document`: PDFs). `usedBy` lists the posts referencing the media (any status, newest first, at most 20).',
    parameters: [
      {
        name: 'limit',
        in: 'query',
        description: `1–${maxMediaPage}, default 50.`,
        schema: ListMediaQuery.shape.limit,
      },
      {
        name: 'cursor',
        in: 'query',
        description: '`nextCursor` of the previous page.',
        schema: ListMediaQuery.shape.cursor,
      },
      { name: 'q', in: 'query', description: 'Search text (at most 200 characters).', schema: z.string() },
      { name: 'kind', in: 'query', schema: z.enum(mediaKinds) },
      { name: 'tag', in: 'query', description: 'One tag.', schema: z.string() },
    ],
    responses: {
      200: { description: 'One page.', content: { [json]: MediaPage } },
      ...problemResponses({ ...unauthorized, invalid_request: 'a bad cursor, limit or kind' }),
    },
  },
  updateMedia: {
    method: 'patch',
    path: '/api/v1/media/{id}',
    auth: 'caller',
    permission: 'posts.publish',
    operationId: 'updateMedia',
    summary: 'Change a media’s file name, alt text or tags',
    description:
      'The alt text is the default wherever the media is used without its own: validation and publishing fill it in for posts that reference the media without alt text. Bytes, key and URL never change.',
    parameters: [idParam('media')],
    requestBody: { content: { [json]: MediaPatch } },
    responses: {
      200: { description: 'The media.', content: { [json]: LibraryMedia } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        forbidden: 'below editor',
        invalid_request: 'malformed JSON, or a field of the wrong type (`errors[].path` names it)',
        validation_failed: 'a well-typed field out of bounds (`errors[].path` names it)',
      }),
    },
  },
  deleteMedia: {
    method: 'delete',
    path: '/api/v1/media/{id}',
    auth: 'caller',
    permission: 'posts.publish',
    operationId: 'deleteMedia',
    summary: 'Delete a media and its thumbnail from the library and storage',
    parameters: [idParam('media')],
    responses: {
      204: { description: 'Deleted.' },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        forbidden: 'below editor',
        media_in_use: 'a draft, scheduled or pending_approval post uses it (`errors` lists them)',
      }),
    },
  },
});
