import { z } from 'zod';
import { nameListOption } from '../long-form.ts';
import { maxTagLength, maxTags, tumblrStates } from './limits.ts';

/** Per-post Tumblr options; strict, so a misspelt `state` cannot publish what was meant as a draft. */
export const tumblrOptionsSchema = z
  .strictObject({
    tags: nameListOption(
      `Up to ${maxTags} tags (each up to ${maxTagLength} characters), as a list or one comma-separated string; a leading # is dropped.`,
      { maxItems: maxTags, maxLength: maxTagLength },
    ),
    state: z.enum(tumblrStates).optional().meta({
      description:
        "`published` (default), `draft` (saved on the blog's drafts) or `queue` (added to the blog's queue, which Tumblr publishes on its own schedule).",
    }),
  })
  .meta({ id: 'TumblrOptions' });
export type TumblrOptions = z.infer<typeof tumblrOptionsSchema>;

/**
 * OAuth 2 tokens of the Tumblr login that owns or writes to the blog (contract C: `accessToken`,
 * `refreshToken`). The access token lives about 42 minutes, so the refresh token is required: the
 * publisher renews with it, with the account's `clientId` / `clientSecret` or TUMBLR_CLIENT_ID /
 * TUMBLR_CLIENT_SECRET.
 */
export const tumblrCredentialsSchema = z
  .object({
    accessToken: z.string().min(1).meta({ description: 'OAuth 2 access token (scopes basic, write).' }),
    refreshToken: z.string().min(1).meta({
      description: 'Refresh token (scope offline_access); Tumblr answers a new one on every refresh.',
    }),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .meta({ description: 'When accessToken expires: ISO 8601, or milliseconds since the epoch.' }),
    clientId: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'OAuth client (consumer key) of the Tumblr app.' }),
    clientSecret: z.string().min(1).optional().meta({ description: 'Its secret (consumer secret).' }),
  })
  .meta({ id: 'TumblrCredentials' });
export type TumblrCredentials = z.infer<typeof tumblrCredentialsSchema>;
