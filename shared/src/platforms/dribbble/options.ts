import { z } from 'zod';
import { nameListOption } from '../long-form.ts';

/** Dribbble's API documentation: "Limited to a maximum of 12 tags." */
export const dribbbleMaxTags = 12;

/** Per-post Dribbble options: the shot's title (required; the message is its description) and tags. */
export const dribbbleOptionsSchema = z
  .strictObject({
    title: z.string().trim().optional().meta({ description: 'The shot’s title (required).' }),
    tags: nameListOption(`Up to ${dribbbleMaxTags} tags, as a list or one comma-separated string.`, {
      maxItems: dribbbleMaxTags,
      maxLength: 50,
    }),
  })
  .meta({ id: 'DribbbleOptions' });
export type DribbbleOptions = z.infer<typeof dribbbleOptionsSchema>;

export const dribbbleCredentialsSchema = z
  .object({
    accessToken: z.string().trim().min(1).meta({
      description: 'An OAuth access token with the `upload` scope (Dribbble tokens do not expire).',
    }),
  })
  .meta({ id: 'DribbbleCredentials' });
export type DribbbleCredentials = z.infer<typeof dribbbleCredentialsSchema>;
