import { z } from 'zod';
import { longFormTitleOption, nameListOption } from '../long-form.ts';

export const wordpressStatuses = ['publish', 'draft'] as const;

/** Per-post WordPress options. Strict, so a misspelt `status` cannot publish what was meant as a draft. */
export const wordpressOptionsSchema = z
  .strictObject({
    title: longFormTitleOption(),
    status: z.enum(wordpressStatuses).optional().meta({
      description:
        '`publish` (default) publishes at once (a scheduled post is published by the Scheduler at its time); `draft` saves it unpublished on the site.',
    }),
    categories: nameListOption(
      'Category names (or one comma-separated string); a name the site does not have yet is created.',
      { maxLength: 200 },
    ),
    tags: nameListOption('Tag names (or one comma-separated string); missing tags are created.', {
      maxLength: 200,
    }),
    excerpt: z
      .string()
      .optional()
      .meta({ description: "The post's excerpt (summary shown in lists and feeds); plain text." }),
  })
  .meta({ id: 'WordPressOptions' });
export type WordPressOptions = z.infer<typeof wordpressOptionsSchema>;

export const wordpressCredentialsSchema = z
  .object({
    siteUrl: z.url({ protocol: /^https?$/ }).meta({
      description:
        'The site\'s address, e.g. "https://blog.example.com" or "https://example.com/blog" for a site in a subdirectory.',
    }),
    username: z
      .string()
      .trim()
      .min(1)
      .meta({ description: 'The WordPress user name (or e-mail) to post as.' }),
    applicationPassword: z.string().trim().min(1).meta({
      description:
        "An application password of that user (Users → Profile → Application Passwords), spaces and all; not the user's login password.",
    }),
  })
  .meta({ id: 'WordPressCredentials' });
export type WordPressCredentials = z.infer<typeof wordpressCredentialsSchema>;
