import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';

/**
 * Per-post Bluesky options. Strict, so a misspelt `altTexts` is an error instead of images
 * published without descriptions.
 */
export const blueskyOptionsSchema = z
  .strictObject({
    altTexts: z
      .array(z.string().max(10_000))
      .max(4)
      .optional()
      .meta({ description: 'Alt text per attached image or video, in media order.' }),
    langs: z
      .array(z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag'))
      .max(3)
      .optional()
      .meta({ description: 'Languages of the post text, e.g. ["en"] (at most three).' }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'BlueskyOptions' });
export type BlueskyOptions = z.infer<typeof blueskyOptionsSchema>;

export const blueskyCredentialsSchema = z
  .object({
    identifier: z.string().min(1).meta({ description: 'Handle (alice.bsky.social), DID or account email.' }),
    appPassword: z.string().min(1).meta({ description: 'An app password from Settings → App passwords.' }),
    service: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({ description: 'The account PDS; default https://bsky.social (or BLUESKY_SERVICE_URL).' }),
  })
  .meta({ id: 'BlueskyCredentials' });
export type BlueskyCredentials = z.infer<typeof blueskyCredentialsSchema>;
