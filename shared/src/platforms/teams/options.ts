import { z } from 'zod';
import { parseTeamsWebhookUrl, teamsWebhookHint } from './webhook-url.ts';

/** Per-post Teams options. Strict: a misspelt key is an error rather than an option ignored. */
export const teamsOptionsSchema = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'A bold heading above the text of the card.' }),
    fullWidth: z
      .boolean()
      .optional()
      .meta({ description: 'Show the card across the full width of the channel (msteams.width "Full").' }),
  })
  .meta({ id: 'TeamsOptions' });
export type TeamsOptions = z.infer<typeof teamsOptionsSchema>;

export const teamsCredentialsSchema = z
  .object({
    webhookUrl: z
      .string()
      .refine((url) => parseTeamsWebhookUrl(url) !== undefined, { message: teamsWebhookHint })
      .meta({
        description:
          'The URL of a Teams Workflows "Post to a channel when a webhook request is received" flow. It is the credential: keep it secret.',
      }),
  })
  .meta({ id: 'TeamsCredentials' });
export type TeamsCredentials = z.infer<typeof teamsCredentialsSchema>;
