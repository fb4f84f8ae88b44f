import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

export const facebookOptionsSchema = z
  .strictObject({
    link: z.url().optional().meta({
      description: 'A link shared with a text post (Facebook renders its preview). Ignored with media.',
    }),
    firstComment: firstCommentOption(8000),
  })
  .meta({ id: 'FacebookOptions' });
export type FacebookOptions = z.infer<typeof facebookOptionsSchema>;

export const facebookCredentialsSchema = z
  .object({
    pageAccessToken: z.string().min(1).meta({
      description:
        'A Page access token (from /me/accounts with a long-lived user token: it does not expire).',
    }),
  })
  .meta({ id: 'FacebookCredentials' });
export type FacebookCredentials = z.infer<typeof facebookCredentialsSchema>;
