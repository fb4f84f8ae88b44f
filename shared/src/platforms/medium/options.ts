import { z } from 'zod';
import { longFormTitleOption, nameListOption } from '../long-form.ts';

/**
 * Medium's API documentation: "Only the first three [tags] will be used. Tags longer than 25
 * characters will be ignored." The composer takes up to 5 (as Medium's editor does), validation
 * warns past 3, and only the first 3 are sent (docs/platforms/medium.md).
 */
export const mediumKeptTags = 3;
export const mediumMaxTags = 5;
export const mediumMaxTagLength = 25;
export const mediumPublishStatuses = ['public', 'draft', 'unlisted'] as const;

/** Per-post Medium options. Strict, so a misspelt `publishStatus` cannot publish a draft. */
export const mediumOptionsSchema = z
  .strictObject({
    title: longFormTitleOption(),
    tags: nameListOption(
      `Up to ${mediumMaxTags} tags of up to ${mediumMaxTagLength} characters, as a list or one comma-separated string; Medium keeps the first ${mediumKeptTags}.`,
      { maxItems: mediumMaxTags, maxLength: mediumMaxTagLength },
    ),
    canonicalUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({ description: 'Where the story first appeared (Medium links to it as the original).' }),
    publishStatus: z.enum(mediumPublishStatuses).optional().meta({
      description:
        '`public` (default), `draft` (saved in the author’s drafts) or `unlisted` (published, reachable by its link only).',
    }),
  })
  .meta({ id: 'MediumOptions' });
export type MediumOptions = z.infer<typeof mediumOptionsSchema>;

export const mediumCredentialsSchema = z
  .object({
    integrationToken: z.string().trim().min(1).meta({
      description: 'A Medium integration token (Settings → Security and apps → Integration tokens).',
    }),
  })
  .meta({ id: 'MediumCredentials' });
export type MediumCredentials = z.infer<typeof mediumCredentialsSchema>;
