import { z } from 'zod';
import { longFormTitleOption, nameListOption } from '../long-form.ts';

/** Hashnode takes at most 5 tags per post (its editor and API). */
export const hashnodeMaxTags = 5;
/** Hashnode's editor limits a subtitle to 150 characters. */
export const hashnodeMaxSubtitle = 150;

/** Per-post Hashnode options. Strict, so a misspelt `draft` cannot publish what was meant as a draft. */
export const hashnodeOptionsSchema = z
  .strictObject({
    title: longFormTitleOption(),
    subtitle: z
      .string()
      .trim()
      .max(hashnodeMaxSubtitle, `a Hashnode subtitle may be up to ${hashnodeMaxSubtitle} characters`)
      .optional()
      .meta({ description: 'The line shown under the title.' }),
    tags: nameListOption(
      `Up to ${hashnodeMaxTags} tag names (or one comma-separated string); each is sent as { slug, name }, the slug made from the name.`,
      { maxItems: hashnodeMaxTags, maxLength: 50 },
    ),
    canonicalUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({ description: 'Where the article first appeared (`originalArticleURL`).' }),
    // A boolean; "true" and "false" too, as the composer's select sends them.
    draft: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
      .optional()
      .meta({ description: 'true: save a draft (`createDraft`) instead of publishing (`publishPost`).' }),
  })
  .meta({ id: 'HashnodeOptions' });
export type HashnodeOptions = z.infer<typeof hashnodeOptionsSchema>;

export const hashnodeCredentialsSchema = z
  .object({
    personalAccessToken: z.string().trim().min(1).meta({
      description: 'A Hashnode Personal Access Token (Account settings → Developer).',
    }),
  })
  .meta({ id: 'HashnodeCredentials' });
export type HashnodeCredentials = z.infer<typeof hashnodeCredentialsSchema>;

/** A tag as Hashnode's `PublishPostTagInput` takes it: a slug (lower-case words joined by dashes) and the name. */
export function hashnodeTag(name: string): { slug: string; name: string } {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return { slug: slug || 'tag', name };
}
