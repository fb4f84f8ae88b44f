import { z } from 'zod';
import { maxUsernameLength } from './config.ts';
import { parseWebhookUrl, webhookUrlHint } from './webhook-url.ts';

const snowflake = z.string().regex(/^\d{15,25}$/, 'must be a Discord id (digits)');

/** Discord refuses these in webhook usernames (case-insensitive, anywhere in the name). */
const forbiddenUsernameParts = ['discord', 'clyde'];
const forbiddenUsernames = ['everyone', 'here'];

/**
 * Per-post Discord options. Strict, like every platform's: a misspelt key is an error rather
 * than an option silently ignored.
 */
export const discordOptionsSchema = z
  .strictObject({
    username: z
      .string()
      .trim()
      .min(1)
      .max(maxUsernameLength)
      .refine((name) => !forbiddenUsernameParts.some((part) => name.toLowerCase().includes(part)), {
        message: 'Discord does not allow "discord" or "clyde" in a webhook username',
      })
      .refine((name) => !forbiddenUsernames.includes(name.toLowerCase()), {
        message: 'Discord does not allow "everyone" or "here" as a webhook username',
      })
      .optional()
      .meta({ description: "Name shown for this message instead of the webhook's own name." }),
    avatarUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .meta({ description: "Image URL shown for this message instead of the webhook's own avatar." }),
    threadId: snowflake
      .optional()
      .meta({ description: "Post into this thread of the webhook's channel (it is unarchived if needed)." }),
  })
  .meta({ id: 'DiscordOptions' });
export type DiscordOptions = z.infer<typeof discordOptionsSchema>;

export function discordCredentialsSchema(apiUrl: string) {
  return z
    .object({
      webhookUrl: z
        .string()
        .refine((url) => parseWebhookUrl(url, apiUrl) !== undefined, { message: webhookUrlHint }),
    })
    .meta({ id: 'DiscordCredentials' });
}
export type DiscordCredentials = { webhookUrl: string };
