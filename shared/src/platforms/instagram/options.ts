import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

export const instagramOptionsSchema = z
  .strictObject({
    shareToFeed: z
      .boolean()
      .optional()
      .meta({ description: 'A reel also appears in the profile feed. Default: true.' }),
    thumbOffset: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Reel cover: the frame at this many milliseconds. Default: Instagram chooses.' }),
    firstComment: firstCommentOption(2200),
  })
  .meta({ id: 'InstagramOptions' });
export type InstagramOptions = z.infer<typeof instagramOptionsSchema>;

export const instagramCredentialsSchema = z
  .object({
    accessToken: z.string().min(1),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({
        description: 'When a long-lived Instagram Login token expires (refreshed during its last week).',
      }),
    loginType: z.enum(['instagram', 'facebook']).optional().meta({
      description:
        '"instagram" (default): Instagram Login, calls go to INSTAGRAM_GRAPH_URL. "facebook": an account linked through a Facebook Page, with a Page token; calls go to FACEBOOK_GRAPH_URL.',
    }),
  })
  .meta({ id: 'InstagramCredentials' });
export type InstagramCredentials = z.infer<typeof instagramCredentialsSchema>;
