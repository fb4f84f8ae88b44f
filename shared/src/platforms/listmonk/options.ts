import { z } from 'zod';

/** Per-post Listmonk options. Strict, so a misspelt `draft` cannot send what was meant as a draft. */
export const listmonkOptionsSchema = z
  .strictObject({
    subject: z.string().optional().meta({
      description:
        "The e-mail's subject (and the campaign's name). Default: the message's first line (a leading # is dropped), and the rest of the message is the body.",
    }),
    // A boolean; "true" and "false" too, as the composer's select sends them.
    draft: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
      .optional()
      .meta({ description: 'true: create the campaign and leave it a draft instead of sending it.' }),
  })
  .meta({ id: 'ListmonkOptions' });
export type ListmonkOptions = z.infer<typeof listmonkOptionsSchema>;

export const listmonkCredentialsSchema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/ }).meta({
      description:
        'The Listmonk server’s root URL, e.g. "https://lists.example.com" (a subdirectory is kept).',
    }),
    username: z
      .string()
      .trim()
      .min(1)
      .meta({ description: 'The API user’s name (Admin → Users → an "API" user).' }),
    apiToken: z
      .string()
      .trim()
      .min(1)
      .meta({ description: 'The API user’s token, shown once when it is created.' }),
  })
  .meta({ id: 'ListmonkCredentials' });
export type ListmonkCredentials = z.infer<typeof listmonkCredentialsSchema>;
