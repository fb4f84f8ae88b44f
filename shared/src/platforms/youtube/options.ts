import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

/**
 * Per-post YouTube options. Lengths and characters are checked by validation rather than
 * here, because `title` and `description` default to parts of the message and both must
 * meet the same limits.
 */
export const youTubeOptionsSchema = z
  .strictObject({
    title: z.string().optional().meta({
      description: 'Video title, up to 100 characters, no < or >. Default: the first line of the message.',
    }),
    description: z
      .string()
      .optional()
      .meta({ description: 'Up to 5000 bytes (UTF-8), no < or >. Default: the message.' }),
    tags: z
      .array(z.string().trim().min(1))
      .optional()
      .meta({ description: 'Keywords; together at most 500 characters as YouTube counts them.' }),
    categoryId: z
      .string()
      .regex(/^\d+$/, 'must be a YouTube video category id such as "22"')
      .optional()
      .meta({ description: 'Video category. Default: "22" (People & Blogs).' }),
    privacyStatus: z
      .enum(['public', 'unlisted', 'private'])
      .optional()
      .meta({ description: 'Default: "public", or "private" when `publishAt` is set.' }),
    madeForKids: z.boolean().optional().meta({
      description: 'Declares the video made for kids. Default: not declared (YouTube asks in Studio).',
    }),
    publishAt: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'Future time at which YouTube makes the private video public.' }),
    thumbnailUrl: z.url().optional().meta({
      description:
        'URL of a JPEG or PNG (at most 2 MB) uploaded to this service, set as the custom thumbnail.',
    }),
    firstComment: firstCommentOption(10000),
  })
  .meta({ id: 'YouTubeOptions' });
export type YouTubeOptions = z.infer<typeof youTubeOptionsSchema>;

export const youTubeCredentialsSchema = z
  .object({
    refreshToken: z.string().min(1),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    accessToken: z.string().min(1).optional(),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
    scope: z.string().optional().meta({
      description:
        'The OAuth scopes Google granted, space-separated (learnt on refresh when absent). Staging a scheduled video ahead of time needs `youtube` or `youtube.force-ssl`, which may change a video after upload.',
    }),
  })
  .meta({ id: 'YouTubeCredentials' });
export type YouTubeCredentials = z.infer<typeof youTubeCredentialsSchema>;
