import { z } from 'zod';
import { longFormTitleOption, nameListOption } from '../long-form.ts';

export const ghostStatuses = ['published', 'draft'] as const;

/** Per-post Ghost options. Strict, so a misspelt `status` cannot publish what was meant as a draft. */
export const ghostOptionsSchema = z
  .strictObject({
    title: longFormTitleOption(),
    status: z.enum(ghostStatuses).optional().meta({
      description:
        '`published` (default; always sent, since Ghost itself would save a draft) or `draft`. A scheduled post is published by the Scheduler at its time.',
    }),
    tags: nameListOption('Tag names (or one comma-separated string); Ghost creates missing ones.', {
      maxLength: 191,
    }),
  })
  .meta({ id: 'GhostOptions' });
export type GhostOptions = z.infer<typeof ghostOptionsSchema>;

/** `<24 hex id>:<64 hex secret>`, as Ghost shows an Admin API key. */
export const adminApiKeyPattern = /^([a-f0-9]{24}):([a-f0-9]{64})$/i;

export const ghostCredentialsSchema = z
  .object({
    siteUrl: z.url({ protocol: /^https?$/ }).meta({
      description:
        'The Admin API address of the site, e.g. "https://blog.example.com" or "https://example.com/blog" for a site in a subdirectory (Ghost(Pro): the ghost.io address).',
    }),
    adminApiKey: z
      .string()
      .trim()
      .regex(adminApiKeyPattern, 'an Admin API key is 24 hex characters, a colon, and 64 hex characters')
      .meta({
        description: 'A custom integration\'s Admin API key (Settings → Integrations), "<id>:<secret>".',
      }),
  })
  .meta({ id: 'GhostCredentials' });
export type GhostCredentials = z.infer<typeof ghostCredentialsSchema>;
