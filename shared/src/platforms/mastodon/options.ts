import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

export const mastodonVisibilities = ['public', 'unlisted', 'private', 'direct'] as const;

/** Per-post Mastodon options. Strict, so a misspelt `visibility` cannot publish a private post publicly. */
export const mastodonOptionsSchema = z
  .strictObject({
    visibility: z
      .enum(mastodonVisibilities)
      .optional()
      .meta({ description: "Who sees the post. Default: the account's own default (usually public)." }),
    spoilerText: z
      .string()
      .optional()
      .meta({ description: 'Content warning shown before the text; counts toward the character limit.' }),
    sensitive: z.boolean().optional().meta({ description: 'Hide the media behind a click.' }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/i, 'must be an ISO 639 language code, e.g. "en"')
      .optional()
      .meta({ description: 'ISO 639 language of the text, e.g. "en".' }),
    altTexts: z
      .array(z.string())
      .optional()
      .meta({ description: 'Description (alt text) per attached file, in media order.' }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'MastodonOptions' });
export type MastodonOptions = z.infer<typeof mastodonOptionsSchema>;

export const mastodonCredentialsSchema = z
  .object({
    instanceUrl: z
      .url({ protocol: /^https?$/ })
      .meta({ description: 'The account\'s server, e.g. "https://mastodon.social".' }),
    accessToken: z
      .string()
      .min(1)
      .meta({ description: 'An access token with the write:statuses and write:media scopes.' }),
  })
  .meta({ id: 'MastodonCredentials' });
export type MastodonCredentials = z.infer<typeof mastodonCredentialsSchema>;

/** The instance origin from credentials: paths and trailing slashes are dropped. */
export function instanceOrigin(instanceUrl: string): string {
  return new URL(instanceUrl).origin;
}
