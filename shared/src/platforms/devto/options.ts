import { z } from 'zod';
import { longFormTitleOption } from '../long-form.ts';

/** Forem's rules for a tag: letters and digits only, up to 30 of them; at most 4 per article. */
export const devtoMaxTags = 4;
export const devtoMaxTagLength = 30;

const tag = z
  .string()
  .trim()
  .transform((name) => name.replace(/^#/, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'a tag cannot be empty')
      .max(devtoMaxTagLength, `a Dev.to tag may be up to ${devtoMaxTagLength} characters`)
      .regex(/^[\p{L}\p{N}]+$/u, 'Dev.to tags are letters and digits only (no spaces, dashes or dots)'),
  );

/** Per-post Dev.to options. Strict, so a misspelt `published` cannot publish a draft. */
export const devtoOptionsSchema = z
  .strictObject({
    title: longFormTitleOption(),
    tags: z
      .preprocess(
        (value) => (typeof value === 'string' ? value.split(',').filter((t) => t.trim() !== '') : value),
        z.array(tag).max(devtoMaxTags, `Dev.to takes at most ${devtoMaxTags} tags`),
      )
      .optional()
      .meta({
        description: `Up to ${devtoMaxTags} tags (letters and digits; a leading # is dropped), as a list or one comma-separated string.`,
      }),
    // A boolean; "true" and "false" too, as the composer's select sends them.
    published: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
      .optional()
      .meta({ description: 'Publish at once (default true); false saves the article as a draft on Dev.to.' }),
    canonicalUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({ description: 'Where the article first appeared (Dev.to links to it as the original).' }),
  })
  .meta({ id: 'DevtoOptions' });
export type DevtoOptions = z.infer<typeof devtoOptionsSchema>;

export const devtoCredentialsSchema = z
  .object({
    apiKey: z
      .string()
      .trim()
      .min(1)
      .meta({ description: 'A DEV API key (Settings → Extensions → DEV Community API Keys).' }),
  })
  .meta({ id: 'DevtoCredentials' });
export type DevtoCredentials = z.infer<typeof devtoCredentialsSchema>;
