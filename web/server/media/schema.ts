import { MediaObject } from '@postwave/shared';
import { z } from 'zod';
import { pageLimit } from '#server/http/query.ts';

/*
 * Media shapes are the SDK's (MediaObject, UploadResponse, PresignRequest, PresignResponse): both
 * servers answer them alike. Only the Scheduler's own shapes (uploads, the media library) are here.
 */
export { MediaObject, PresignRequest, PresignResponse, UploadResponse } from '@postwave/shared';

/** `POST /api/v1/upload`: one file in the multipart field `file`. */
export const UploadForm = z.object({ file: z.string().meta({ format: 'binary' }) });

/** The stored media's key, as in its public URL. */
export const MediaKeyParam = { name: 'key', in: 'path' as const, schema: z.string() };

export const mediaKinds = ['image', 'video', 'document'] as const;
export type MediaKind = (typeof mediaKinds)[number];

/** Post statuses in which a post still needs its media: deleting the media is refused then. */
export const mediaHoldingStatuses = ['draft', 'scheduled', 'pending_approval'] as const;

export const maxAltTextLength = 1500;
export const maxTags = 20;
export const maxTagLength = 50;

export const MediaUse = z
  .object({
    postId: z.string(),
    status: z.string().meta({
      description: 'The post’s status (`draft`, `scheduled`, `pending_approval`, `posted`, `failed`).',
    }),
  })
  .meta({ id: 'MediaUse' });

export const LibraryMedia = MediaObject.extend({
  width: z.number().int().optional().meta({
    description:
      'Pixels across, as the image or video is shown (orientation applied). Absent when it could not be read.',
  }),
  height: z.number().int().optional().meta({ description: 'Pixels down, as it is shown.' }),
  durationMs: z.number().int().optional().meta({
    description:
      'A video’s length, read with ffmpeg (absent where the server has no ffmpeg, `FFMPEG_PATH=off`).',
  }),
  altText: z.string().optional().meta({
    description:
      'The default alt text wherever the media is used without its own (filled in at validation and publishing).',
  }),
  tags: z.array(z.string()),
  sha256: z.string().nullable().meta({
    description:
      'Hex SHA-256 of the stored bytes. `null` for media uploaded before the library existed, and for a presigned upload whose bytes have not been received through the Scheduler (direct S3 PUTs) or that repeated bytes the workspace already had.',
  }),
  thumbnailUrl: z.string().optional().meta({
    description:
      'A small WebP thumbnail: of an image, or a video’s poster (its frame at one second) where the server has ffmpeg. PDFs, and videos without a poster, have none: show an icon.',
  }),
  createdAt: z.string(),
  usedBy: z
    .array(MediaUse)
    .meta({ description: 'The posts that reference this media, newest first (at most 20).' }),
}).meta({ id: 'LibraryMedia' });
export type LibraryMediaView = z.infer<typeof LibraryMedia>;

export const MediaPage = z
  .object({ media: z.array(LibraryMedia), nextCursor: z.string().nullable() })
  .meta({ id: 'MediaPage' });

/** Contract B's paging rule for lists: `limit` default 50, at most 200. */
export const maxMediaPage = 200;

export const ListMediaQuery = z.object({
  limit: pageLimit(maxMediaPage),
  cursor: z.string().max(500).optional(),
  q: z.string().max(200).optional(),
  kind: z.enum(mediaKinds).optional(),
  tag: z.string().max(maxTagLength).optional(),
});
export type ListMediaOptions = z.infer<typeof ListMediaQuery>;

const tag = z
  .string()
  .trim()
  .min(1, 'A tag may not be empty')
  .max(maxTagLength, `A tag has at most ${maxTagLength} characters`)
  .regex(/^[^,\p{Cc}]+$/u, 'A tag may not contain commas or control characters');

export const MediaPatch = z
  .object({
    filename: z
      .string()
      .trim()
      .min(1, 'The file name may not be empty')
      .max(200, 'The file name has at most 200 characters')
      .regex(/^[^/\\\p{Cc}]+$/u, 'The file name may not contain slashes or control characters')
      .optional(),
    altText: z
      .string()
      .max(maxAltTextLength, `Alt text has at most ${maxAltTextLength} characters`)
      .nullable()
      .optional()
      .meta({ description: 'An empty string or `null` removes it.' }),
    tags: z
      .array(tag)
      .max(maxTags, `At most ${maxTags} tags`)
      .optional()
      .meta({ description: 'Replaces the tags; duplicates are dropped, case kept.' }),
  })
  .meta({ id: 'MediaPatch' });
export type MediaPatchInput = z.infer<typeof MediaPatch>;
