import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

const postId = z.string().regex(/^\d{1,19}$/, 'must be an X post id (digits, as in the post URL)');

/** Per-post X options; strict so a misspelt option is an error instead of being ignored. */
export const xOptionsSchema = z
  .strictObject({
    replySettings: z
      .enum(['everyone', 'following', 'mentionedUsers', 'subscribers', 'verified'])
      .optional()
      .meta({
        description:
          'Who can reply: everyone (default), following (people the account follows), mentionedUsers (only people mentioned), subscribers, verified.',
      }),
    replyToPostId: postId.optional().meta({ description: 'Publish as a reply to this post id.' }),
    quotePostId: postId.optional().meta({ description: 'Quote this post id.' }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'XOptions' });
export type XOptions = z.infer<typeof xOptionsSchema>;

/**
 * OAuth 2.0 user-context credentials. With `refreshToken` the publisher refreshes an expired
 * token itself; X rotates the refresh token on every refresh, so the new one is handed back
 * through `onCredentialsRefreshed` and must be stored. `clientId`/`clientSecret` default to
 * X_CLIENT_ID / X_CLIENT_SECRET.
 */
export const xCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'OAuth 2.0 user access token.' }),
    refreshToken: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'Refresh token (scope offline.access); rotated by X on every refresh.' }),
    clientId: z.string().min(1).optional().meta({ description: 'OAuth 2.0 client id of the X app.' }),
    clientSecret: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'OAuth 2.0 client secret (confidential clients only).' }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
  })
  .meta({ id: 'XCredentials' });
export type XCredentials = z.infer<typeof xCredentialsSchema>;
