import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';
import { communityPattern, maxTitleLength } from './limits.ts';

export const lemmyOptionsSchema = z
  .strictObject({
    community: z
      .string()
      .trim()
      .regex(communityPattern, 'must be a Lemmy community as name@instance')
      .optional()
      .meta({
        description:
          "The community to post to instead of the account's, as name@instance (the account's user's subscriptions are offered as choices; any community the instance can resolve is accepted). Default: the account's community.",
      }),
    title: z
      .string()
      .trim()
      .optional()
      .meta({
        description: `The post's title (3 to ${maxTitleLength} characters, one line; longer is \`title_too_long\`). Default: the message's first line (a leading # dropped), the rest being the body.`,
      }),
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({ description: "The post's link. Default: the first image's URL, when the post has images." }),
    nsfw: z.boolean().optional().meta({ description: 'Mark the post NSFW.' }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'LemmyOptions' });
export type LemmyOptions = z.infer<typeof lemmyOptionsSchema>;

export const lemmyCredentialsSchema = z
  .object({
    instanceUrl: z
      .url({ protocol: /^https?$/ })
      .meta({ description: 'The instance the account lives on, e.g. "https://lemmy.world".' }),
    username: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .meta({ description: 'The user name (or e-mail) to log in with.' }),
    password: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The password; Postwave logs in with it and keeps the session token (jwt).' }),
    jwt: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'A session token instead of the password (accounts with two-factor login).' }),
  })
  .refine((c) => c.password !== undefined || c.jwt !== undefined, {
    message: 'give a password or a jwt',
    path: ['password'],
  })
  .meta({ id: 'LemmyCredentials' });
export type LemmyCredentials = z.infer<typeof lemmyCredentialsSchema>;
