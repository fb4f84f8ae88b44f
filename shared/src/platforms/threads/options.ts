import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';
import { maxTopicTagLength } from './limits.ts';

const mediaId = z.string().regex(/^\d{1,25}$/, 'must be a Threads media id (digits)');

/** Per-post Threads options; strict so a misspelt option is an error instead of being ignored. */
export const threadsOptionsSchema = z
  .strictObject({
    replyControl: z
      .enum([
        'everyone',
        'accounts_you_follow',
        'mentioned_only',
        'parent_post_author_only',
        'followers_only',
      ])
      .optional()
      .meta({ description: 'Who can reply (`reply_control`). Default: everyone.' }),
    replyToId: mediaId.optional().meta({ description: 'Publish as a reply to this Threads media id.' }),
    quotePostId: mediaId.optional().meta({ description: 'Quote this Threads media id.' }),
    topicTag: z
      .string()
      .min(1)
      .max(maxTopicTagLength)
      .regex(/^[^.&]+$/, 'cannot contain periods (.) or ampersands (&)')
      .optional()
      .meta({ description: 'The post topic (`topic_tag`), 1-50 characters, no "." or "&".' }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'ThreadsOptions' });
export type ThreadsOptions = z.infer<typeof threadsOptionsSchema>;

/**
 * A long-lived Threads user access token (60 days). `expiresAt`, when known (the Scheduler
 * stores it), lets the publisher refresh the token before it lapses.
 */
export const threadsCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'Long-lived Threads user access token.' }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
  })
  .meta({ id: 'ThreadsCredentials' });
export type ThreadsCredentials = z.infer<typeof threadsCredentialsSchema>;
