import { z } from 'zod';
import { maxFlairTextLength, maxTitleLength } from './limits.ts';

/** Per-post Reddit options (contract section C). Strict: a misspelt key is refused. */
export const redditOptionsSchema = z
  .strictObject({
    title: z
      .string()
      .optional()
      .meta({ description: `The post's title (required), up to ${maxTitleLength} characters.` }),
    flairId: z.string().trim().min(1).max(64).optional().meta({
      description:
        'A post flair template id of the subreddit (its `link_flair_v2` list; `GET /api/v1/accounts/{id}/options/flairId` in the Scheduler). Required where the subreddit requires flair.',
    }),
    flairText: z
      .string()
      .optional()
      .meta({
        description: `The flair's text, up to ${maxFlairTextLength} characters, for a flair the subreddit lets users edit.`,
      }),
    nsfw: z.boolean().optional().meta({ description: 'Mark the post NSFW (18+).' }),
    spoiler: z.boolean().optional().meta({ description: 'Mark the post as a spoiler.' }),
  })
  .meta({ id: 'RedditOptions' });
export type RedditOptions = z.infer<typeof redditOptionsSchema>;

export const redditCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'An OAuth access token of the Reddit user.' }),
    refreshToken: z.string().min(1).meta({
      description:
        'The permanent refresh token (`duration=permanent`); renewing needs REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET of the app that issued it.',
    }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
    username: z.string().optional().meta({ description: 'The Reddit user name (learnt when absent).' }),
    clientId: z.string().min(1).optional().meta({
      description: 'The Reddit app that issued the tokens, when it is not the one in REDDIT_CLIENT_ID.',
    }),
    clientSecret: z.string().optional().meta({ description: 'That app’s secret (with clientId).' }),
  })
  .meta({ id: 'RedditCredentials' });
export type RedditCredentials = z.infer<typeof redditCredentialsSchema>;
